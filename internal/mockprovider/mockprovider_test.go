package mockprovider

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestScenarios(t *testing.T) {
	s, err := Start([]File{{Path: "a.txt", Old: "old\n", New: "new\n"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(Edit), "http://127.0.0.1:") {
		t.Fatalf("not on loopback: %s", s.URL(Edit))
	}
	chat := `{"model":"m","messages":[{"role":"user","content":"go"}]}`
	chatStream := `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`
	resp := `{"model":"m","input":[{"role":"user","content":"go"}]}`
	for _, tc := range []struct {
		scenario, path, body string
		code                 int
		want                 string
	}{
		{Edit, "/chat/completions", chat, 200, `"name":"write"`},
		{Edit, "/chat/completions", `{"messages":[{"role":"tool","content":"ok"}]}`, 200, `"finish_reason":"stop"`},
		{Edit, "/chat/completions", chatStream, 200, "data: [DONE]"},
		{Edit, "/responses", resp, 200, `*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch`},
		{Edit, "/responses", `{"stream":true,"input":[]}`, 200, "event: response.completed"},
		{ToolError, "/chat/completions", chat, 200, `"name":"edit"`},
		{Error500, "/chat/completions", chat, 500, "internal server error"},
		{Error400, "/responses", resp, 400, "bad request"},
		{Malformed, "/chat/completions", chatStream, 200, "data: {not json"},
		{Reasoning, "/chat/completions", chat, 200, `"reasoning_content"`},
		{Text, "/responses", resp, 200, `"output_text"`},
		{LateWrite, "/chat/completions", chat, 200, `"name":"bash"`},
		// The probe gets a healthy answer, except in the reasoning scenario.
		{Error500, "/chat/completions", `{"messages":[{"role":"user","content":"` + ProbePrompt + `"}]}`, 200, `"content":"ready"`},
		{Reasoning, "/responses", `{"input":"` + ProbePrompt + `"}`, 200, `"type":"reasoning"`},
		{Case, "/chat/completions", `{"messages":[{"role":"system","content":"# Reviewer — review"}]}`, 200, `AGENT_RESULT\n{`},
		{Case, "/chat/completions", `{"messages":[{"role":"system","content":"# Implementer — do"}]}`, 200, `git add -A`},
		{CaseNoop, "/chat/completions", `{"messages":[{"role":"system","content":"# Implementer — do"}]}`, 200, `\"filesChanged\":[\"a.txt\"]`},
	} {
		code, body := post(t, s.URL(tc.scenario)+tc.path, tc.body)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s: %d %.300s, want %d containing %s", tc.scenario, tc.path, code, body, tc.code, tc.want)
		}
	}
	if n := len(s.Requests()); n != 17 {
		t.Errorf("%d requests recorded", n)
	}
}

// Hangs end with the client, with Close, and at MaxHang: nothing waits
// forever.
func TestHangsAreBounded(t *testing.T) {
	s, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	s.MaxHang = 300 * time.Millisecond
	defer s.Close()
	for _, sc := range []string{Hang, HangStream} {
		start := time.Now()
		resp, err := http.Post(s.URL(sc)+"/chat/completions", "application/json", strings.NewReader(`{"stream":true,"messages":[]}`))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s", sc, d)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL(Hang)+"/responses", bytes.NewReader([]byte(`{}`)))
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("a hang answered")
	}
}

func TestWholeFilePatch(t *testing.T) {
	p := wholeFilePatch([]File{{Path: "n.go", New: "a\nb\n"}}, false)
	if p != "*** Begin Patch\n*** Add File: n.go\n+a\n+b\n*** End Patch\n" {
		t.Errorf("%q", p)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(jsonString(map[string]any{"x": p})), &v); err != nil {
		t.Error(err)
	}
}
