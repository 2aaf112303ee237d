// Package syntax defines an Analyzer that reports workspace files sotvet
// could not read as text.
//
// # Analyzer syntax
//
// syntax: report files that cannot be read or parsed as workspace input.
//
// A finding is reported, at the exact place where it can be told, for a file
// that cannot be read (permissions, a symbolic link that leads outside the
// workspace and is therefore not followed, a file over the size limit), a
// file that is not valid UTF-8 or contains NUL bytes, a markdown document
// that starts with a UTF-8 byte order mark, and a JSON record that is not a
// single well-formed object: syntax errors, duplicate member names, members
// unknown to the record's kind, or values of the wrong type.
//
// A markdown document whose lists and block quotes nest deeper than 16
// levels (on one line, or line after line by indentation), whose links
// and code spans would cost more than linear time to parse (a line of
// links that never close, runs of backticks nothing closes), or that
// holds more runs of emphasis and strikethrough markers than its
// allowance (65,536 and one for every 16 bytes: each is held in memory
// until its paragraph closes), gets a finding where the bound is passed;
// past it, that markup is read as text and the rest of the document is
// checked.
//
// Such files are never half-read: a file with an encoding problem is left out
// of the model, so that other checks do not judge text that may not mean what
// it shows.
package syntax
