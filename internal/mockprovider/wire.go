package mockprovider

import (
	"encoding/json"
	"fmt"
	"strings"
)

// wholeFilePatch is an apply_patch body that replaces each file's content.
// broken names a context line no file has, so the patch cannot apply.
func wholeFilePatch(files []File, broken bool) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for _, f := range files {
		if f.Old == "" && !broken {
			fmt.Fprintf(&b, "*** Add File: %s\n", f.Path)
			for _, l := range lines(f.New) {
				b.WriteString("+" + l + "\n")
			}
			continue
		}
		fmt.Fprintf(&b, "*** Update File: %s\n@@\n", f.Path)
		old := lines(f.Old)
		if broken {
			old = []string{"this line is in no file of the workspace"}
		}
		for _, l := range old {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range lines(f.New) {
			b.WriteString("+" + l + "\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func jsonString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// responsesAPI is POST /v1/responses (Codex, and Pi with
// api: openai-responses).
type responsesAPI struct{}

func (responsesAPI) hasToolResult(req map[string]any) bool {
	in, _ := req["input"].([]any)
	for _, it := range in {
		m, _ := it.(map[string]any)
		switch m["type"] {
		case "function_call_output", "custom_tool_call_output":
			return true
		}
	}
	return false
}

// editCalls uses Codex's free-form apply_patch tool; a client that offers
// only function tools (Pi) gets a write call per file instead.
func (responsesAPI) editCalls(files []File, broken bool) []toolCall {
	return []toolCall{{id: "call_mock1", name: "apply_patch", custom: true, input: wholeFilePatch(files, broken)}}
}

// shellCalls uses Codex's exec_command tool.
func (responsesAPI) shellCalls(cmd string) []toolCall {
	return []toolCall{{id: "call_mock1", name: "exec_command", args: jsonString(map[string]any{"cmd": cmd})}}
}

func (responsesAPI) begin(t *turn) {
	t.event("response.created", map[string]any{"type": "response.created", "response": respObj(t, "in_progress", nil, false)})
}

func respObj(t *turn, status string, output []any, usage bool) map[string]any {
	if output == nil {
		output = []any{}
	}
	m := map[string]any{"id": fmt.Sprintf("resp_mock%d", t.id), "object": "response", "created_at": 0, "status": status, "model": t.model, "output": output}
	if usage {
		m["usage"] = map[string]any{
			"input_tokens": inputTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": outputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": inputTokens + outputTokens,
		}
	}
	return m
}

func (responsesAPI) items(t *turn, r reply) []any {
	var out []any
	if r.reasoning != "" {
		out = append(out, map[string]any{"type": "reasoning", "id": fmt.Sprintf("rs_mock%d", t.id), "summary": []any{map[string]any{"type": "summary_text", "text": r.reasoning}}})
	}
	if r.text != "" {
		out = append(out, map[string]any{"type": "message", "id": fmt.Sprintf("msg_mock%d", t.id), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": r.text, "annotations": []any{}}}})
	}
	for _, c := range r.calls {
		if c.custom {
			out = append(out, map[string]any{"type": "custom_tool_call", "id": "ctc_" + c.id, "call_id": c.id, "name": c.name, "input": c.input, "status": "completed"})
		} else {
			out = append(out, map[string]any{"type": "function_call", "id": "fc_" + c.id, "call_id": c.id, "name": c.name, "arguments": c.args, "status": "completed"})
		}
	}
	return out
}

func (a responsesAPI) object(t *turn, r reply) any {
	return respObj(t, "completed", a.items(t, r), true)
}

func (a responsesAPI) write(t *turn, r reply) {
	items := a.items(t, r)
	for i, it := range items {
		m := it.(map[string]any)
		t.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": m})
		if m["type"] == "message" {
			t.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": m["id"], "output_index": i, "content_index": 0, "delta": r.text})
			t.event("response.output_text.done", map[string]any{"type": "response.output_text.done", "item_id": m["id"], "output_index": i, "content_index": 0, "text": r.text})
		}
		t.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": m})
	}
	t.event("response.completed", map[string]any{"type": "response.completed", "response": respObj(t, "completed", items, true)})
}

// chatAPI is POST /v1/chat/completions (Pi and Case).
type chatAPI struct{}

func (chatAPI) hasToolResult(req map[string]any) bool {
	msgs, _ := req["messages"].([]any)
	for _, it := range msgs {
		m, _ := it.(map[string]any)
		if m["role"] == "tool" {
			return true
		}
	}
	return false
}

// editCalls uses Pi's write tool, or its edit tool with text that is not in
// the file when broken.
func (chatAPI) editCalls(files []File, broken bool) []toolCall {
	var out []toolCall
	for i, f := range files {
		c := toolCall{id: fmt.Sprintf("call_mock%d", i+1), name: "write", args: jsonString(map[string]any{"path": f.Path, "content": f.New})}
		if broken {
			c.name = "edit"
			c.args = jsonString(map[string]any{"path": f.Path, "edits": []any{map[string]any{"oldText": "this text is in no file of the workspace", "newText": f.New}}})
		}
		out = append(out, c)
	}
	return out
}

// shellCalls uses Pi's bash tool.
func (chatAPI) shellCalls(cmd string) []toolCall {
	return []toolCall{{id: "call_mock1", name: "bash", args: jsonString(map[string]any{"command": cmd})}}
}

func (chatAPI) begin(t *turn) {
	t.event("", chunk(t, map[string]any{"role": "assistant", "content": ""}, nil))
}

func chunk(t *turn, delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": fmt.Sprintf("chatcmpl-mock%d", t.id), "object": "chat.completion.chunk", "created": 0, "model": t.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
}

func chatUsage() map[string]any {
	return map[string]any{"prompt_tokens": inputTokens, "completion_tokens": outputTokens, "total_tokens": inputTokens + outputTokens}
}

func (chatAPI) calls(r reply) []any {
	var out []any
	for i, c := range r.calls {
		out = append(out, map[string]any{"index": i, "id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": c.args}})
	}
	return out
}

func finishReason(r reply) string {
	if len(r.calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func (a chatAPI) object(t *turn, r reply) any {
	msg := map[string]any{"role": "assistant", "content": r.text}
	if r.text == "" {
		msg["content"] = nil
	}
	if r.reasoning != "" {
		msg["reasoning_content"] = r.reasoning
	}
	if len(r.calls) > 0 {
		msg["tool_calls"] = a.calls(r)
	}
	return map[string]any{"id": fmt.Sprintf("chatcmpl-mock%d", t.id), "object": "chat.completion", "created": 0, "model": t.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(r)}}, "usage": chatUsage()}
}

func (a chatAPI) write(t *turn, r reply) {
	if r.reasoning != "" {
		t.event("", chunk(t, map[string]any{"reasoning_content": r.reasoning}, nil))
	}
	if r.text != "" {
		t.event("", chunk(t, map[string]any{"content": r.text}, nil))
	}
	if len(r.calls) > 0 {
		t.event("", chunk(t, map[string]any{"tool_calls": a.calls(r)}, nil))
	}
	t.event("", chunk(t, map[string]any{}, finishReason(r)))
	t.event("", map[string]any{"id": fmt.Sprintf("chatcmpl-mock%d", t.id), "object": "chat.completion.chunk", "created": 0, "model": t.model, "choices": []any{}, "usage": chatUsage()})
	fmt.Fprint(t.w, "data: [DONE]\n\n")
}
