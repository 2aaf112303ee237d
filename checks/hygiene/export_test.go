package hygiene

// BlankForTest is blank, for the external tests.
var BlankForTest = blank
