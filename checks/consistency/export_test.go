package consistency

// RunStamps is runStamps, for the tests.
var RunStamps = runStamps
