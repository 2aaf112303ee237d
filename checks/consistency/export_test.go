package consistency

// RunStamps is runStamps, for the tests.
var RunStamps = runStamps

// ISODates is isoDates, for the tests.
var ISODates = isoDates
