package clientpage

// PathPrefix is where client links live: PathPrefix + token.
const PathPrefix = "/c/"
