package checks

// DocChecks are the checks' per-document parts, for the external tests.
var DocChecks = docChecks

// RedactScanner is the scanner builder of a run without the secrets
// check, for the external tests to count.
var RedactScanner = &redactScanner
