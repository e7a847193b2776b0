package ui

// On macOS the driver passes the system's scroll distances, which
// already follow the user's settings.
const driverNotch = 0
