package contract

import (
	"fmt"
	"regexp"

	"go.yaml.in/yaml/v4"
)

// envName is an environment variable name a case may point the provider
// configuration at.
var envName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// providerEnv reads provider_env: the names of the environment variables
// that hold the external lanes' provider base URL and API key (the values
// themselves are never written in a case).
func (v *validator) providerEnv(n *yaml.Node, c *Case) {
	if n.Kind != yaml.MappingNode {
		v.fail(n, "provider_env: want a mapping of base_url and api_key variable names")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], v.deref(n.Content[i+1])
		var dst *string
		switch k.Value {
		case "base_url":
			dst = &c.BaseURLEnv
		case "api_key":
			dst = &c.APIKeyEnv
		default:
			v.fail(k, fmt.Sprintf("provider_env: unknown key %q", k.Value))
			continue
		}
		if val.Kind != yaml.ScalarNode || !envName.MatchString(val.Value) {
			v.fail(val, fmt.Sprintf("provider_env.%s: want an environment variable name such as SOTVET_PROVIDER_BASE_URL", k.Value))
			continue
		}
		*dst = val.Value
	}
}
