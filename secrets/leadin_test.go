package secrets

import (
	"bytes"
	"math/rand"
	"regexp"
	"testing"
)

// TestSQLFunctionLeadInAsExpression: sqlFunctionLeadIn reads a line from
// its end as the expression it replaced reads it, \b and (?i)'s ſ for s
// included: on lines written to sit at each edge and on random lines
// of the words and bytes it looks at.
func TestSQLFunctionLeadInAsExpression(t *testing.T) {
	re := regexp.MustCompile(`(?i)(?:=|\bvalues[ \t]*\(|\bset)[ \t]*$`)
	lines := []string{
		"", " ", "=", "x = ", "x =\t", "VALUES(", "values  ( ", "insert into t values\t(",
		"myvalues(", "my_values(", "my values(", "(values(", "SET", " set ", "reset", "re-set ",
		"UPDATE u SET", "ſet", "xſet", " ſet", "valueſ(", "offset", "set x", "values", "= x",
		"é set", "éset", "1set", "_set",
	}
	parts := []string{"set", "SET", "ſ", "et", "values", "VALUES", "(", "=", " ", "\t", "x", "_", "é", "-", "va", "lues"}
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		var b bytes.Buffer
		for range rng.Intn(6) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		lines = append(lines, b.String())
	}
	for _, l := range lines {
		if got, want := sqlFunctionLeadIn([]byte(l)), re.MatchString(l); got != want {
			t.Errorf("sqlFunctionLeadIn(%q) = %v, the expression %v", l, got, want)
		}
	}
}

// TestWifiBeforeAsLowered: wifiBefore's look at ASCII lines, which copies
// nothing, finds what the lowered line's search finds.
func TestWifiBeforeAsLowered(t *testing.T) {
	parts := []string{"wi-fi", "WiFi", "WLAN", "Wireless", "ssid", "Network", "net", "red ", "Red", "rede ", "RETE ", "réseau", "RÉSEAU", "netz", "red inalámbrica", "rete ospiti", "s", " graph", "table", "-", "shared", "ed", "\n", " ", "x", "w", "s", "n", "r"}
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		var b bytes.Buffer
		for range rng.Intn(40) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		data := b.Bytes()
		at := 0
		if len(data) > 0 {
			at = rng.Intn(len(data) + 1)
		}
		lo := max(0, at-96)
		if nl := bytes.LastIndexByte(data[lo:at], '\n'); nl >= 0 {
			lo += nl + 1
		}
		if got, want := wifiBefore(data, at), wordsIn(bytes.ToLower(data[lo:at]), wifiWords); got != want {
			t.Errorf("wifiBefore(%q, %d) = %v, the lowered line's search %v", data, at, got, want)
		}
	}
}
