package main

import (
	"flag"
	"time"

	"github.com/svrnty/sotvet/harness"
)

// laneFlags are harness run's flags for the external lanes. The provider's
// base URL and key are read from the environment only, never from argv.
type laneFlags struct {
	model, admission     string
	baseURLEnv, keyEnv   string
	probeTokens          int
	probeTimeout, timout time.Duration
	cliSource            string
}

func (l *laneFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.model, "model", "", "model as PROVIDER/MODEL (external lanes)")
	fs.StringVar(&l.admission, "admission", "", "model-provider admission record (JSON) that must admit --model")
	fs.StringVar(&l.baseURLEnv, "base-url-env", "", "environment variable holding the provider's base URL (default: the case's provider_env.base_url, else sotvet.yaml's harness.provider_env.base_url, else "+harness.DefaultBaseURLEnv+")")
	fs.StringVar(&l.keyEnv, "api-key-env", "", "environment variable holding the provider's API key (default: the case's provider_env.api_key, else sotvet.yaml's harness.provider_env.api_key, else "+harness.DefaultAPIKeyEnv+")")
	fs.IntVar(&l.probeTokens, "probe-max-tokens", harness.DefaultProbeMaxTokens, "token budget of the response-shape probe (too small a budget gives a false block)")
	fs.DurationVar(&l.probeTimeout, "probe-timeout", 60*time.Second, "how long the response-shape probe may take")
	fs.DurationVar(&l.timout, "backend-timeout", 0, "replace the case's backend timeout")
	fs.StringVar(&l.cliSource, "cli-source", "", "what the lane's CLI was built from (e.g. github.com/workos/case@30b1fa1), recorded as report.json's cli_source")
}

func (l *laneFlags) apply(opt *harness.Options) {
	opt.Model, opt.AdmissionFile = l.model, l.admission
	opt.BaseURLEnv, opt.APIKeyEnv = l.baseURLEnv, l.keyEnv
	opt.ProbeMaxTokens, opt.ProbeTimeout, opt.BackendTimeout = l.probeTokens, l.probeTimeout, l.timout
	opt.CLISource = l.cliSource
}
