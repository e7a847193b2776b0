//go:build !darwin

package ui

// driverNotch is what Fyne's GLFW driver reports for one wheel notch
// outside macOS (its scrollSpeed).
const driverNotch = 25
