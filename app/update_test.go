package app

// UpdateGolden is -update for the external test package (app_test): one
// flag rewrites every golden file of the package.
var UpdateGolden = update
