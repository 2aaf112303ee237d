package checks

// DocChecks are the checks' per-document parts, for the external tests.
var DocChecks = docChecks
