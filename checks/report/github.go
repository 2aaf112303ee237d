package report

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/checks"
)

// defaultMaxAnnotations is how many annotations of each severity GitHub
// shows for one step.
const defaultMaxAnnotations = 10

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// writeGitHub writes GitHub Actions workflow commands: the first
// MaxAnnotations findings of each severity as ::error or ::warning
// annotations, the rest as plain lines so the log keeps them all, then a
// summary line when there are findings.
//
// Every finding takes exactly one line: messages are escaped as workflow
// command data in plain lines too, so no message can start a line of its own
// that the runner would read as a command.
func writeGitHub(buf *bufio.Writer, res *checks.Result, opt Options) {
	limit := opt.MaxAnnotations
	if limit <= 0 {
		limit = defaultMaxAnnotations
	}
	shown := map[checks.Severity]int{}
	hidden := 0
	for i := range res.Findings {
		f := &res.Findings[i]
		sev := severity(f)
		if shown[sev] < limit {
			shown[sev]++
			writeAnnotation(buf, f, sev, opt.Tool)
			continue
		}
		hidden++
		line := textLineMsg(f, dataEscaper.Replace(f.Message))
		if strings.HasPrefix(line, "::") {
			line = "./" + line // a path starting with "::" must not read as a command
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
	n := len(res.Findings)
	if n == 0 {
		return
	}
	errs, warns := counts(res)
	fmt.Fprintf(buf, "%s: %d findings (%d errors, %d warnings)", opt.Tool, n, errs, warns)
	if hidden > 0 {
		fmt.Fprintf(buf, "; %d not shown as annotations", hidden)
	}
	buf.WriteByte('\n')
}

// writeAnnotation writes
// "::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=TOOL CHECK::MESSAGE",
// without col and endColumn when the finding spans lines.
// A finding without a file gets no position properties.
func writeAnnotation(buf *bufio.Writer, f *checks.Finding, sev checks.Severity, tool string) {
	var props []string
	if f.File != "" {
		rg := regionOf(f)
		props = append(props, "file="+propertyEscaper.Replace(f.File), "line="+strconv.Itoa(rg.startLine))
		// The runner drops col and endColumn on an annotation spanning lines.
		if rg.startLine == rg.endLine {
			props = append(props, "col="+strconv.Itoa(rg.startCol))
		}
		props = append(props, "endLine="+strconv.Itoa(rg.endLine))
		if rg.startLine == rg.endLine {
			props = append(props, "endColumn="+strconv.Itoa(rg.endCol))
		}
	}
	props = append(props, "title="+propertyEscaper.Replace(tool+" "+f.Check))
	fmt.Fprintf(buf, "::%s %s::%s\n", sev, strings.Join(props, ","), dataEscaper.Replace(f.Message))
}
