package secrets

import (
	"encoding/base64"
	"testing"
)

// TestRoundThirtyForms: the forms of round thirty in paraphrases a helper
// who had not read the rules wrote (values drawn here, so no committed
// file holds one), with their near-misses.
func TestRoundThirtyForms(t *testing.T) {
	g := newFakeGen("round-thirty")
	tok := func() string { return g.mixed(base62, 36) }
	hex := func(n int) string { return g.from("0123456789abcdef", n) }
	jenkins := "AQAAABAAAAAg" + g.mixed(base62, 40) + "=="
	dockerAuth := base64.StdEncoding.EncodeToString([]byte("deployer:" + g.mixed(base62, 18)))
	cases := []formCase{
		// a label, a spaced dash and a quoted value
		{"logs/deploy.log", "2024-03-11T09:14:22Z INFO notifier: sendgrid token - 'SG." + g.mixed(base62, 22) + "." + g.mixed(base62, 43) + "'\n", "*"},
		{"docs/handover.md", "Credentials for the staging mailer:\n- mailgun api key - \"key-" + g.from("0123456789abcdefghijklmnopqrstuvwxyz", 32) + "\"\n- region - eu\n", "*"},
		{"notes/creds.txt", "github deploy token - '" + tok() + "'\nowner - platform-team\n", "*"},
		{"ops/runbook.md", "* datadog api key - `" + hex(32) + "`\n* datadog site - datadoghq.eu\n", "*"},
		{"logs/worker.log", "2024-03-11T09:14:22Z WARN notifier: sendgrid token - 'not configured, skipping email delivery'\n", ""},
		{"docs/setup.md", "- mailgun api key - \"${MAILGUN_API_KEY}\" (injected by the CI pipeline)\n", ""},
		{"ops/runbook.md", "* datadog api key - `{{ vault_datadog_api_key }}`\n", ""},
		// a whole header value under a token's name
		{"config/integrations.yaml", "crm:\n  auth_token: \"Bearer " + tok() + "\"\n", "*"},
		{"src/main/resources/application.properties", "billing.api.auth-token=Bearer " + tok() + "\n", "*"},
		{"config/integrations.yaml", "crm:\n  auth_token: \"Bearer ${PIPEDRIVE_TOKEN}\"\n", ""},
		{"README.md", "Set the header in your requests:\n\n    auth_token: \"Bearer <your-token>\"\n", ""},
		{"internal/notify/client.go", "authorizationToken := \"Bearer \" + cfg.AccessToken\n", ""},
		// an index named for a secret
		{"notebooks/setup_env.py", "import os\nos.environ[\"OPENAI_API_KEY\"] = \"" + tok() + "\"\n", RuleIndexedSecret},
		{"config/app.php", "<?php\n$config['api_secret'] = '" + tok() + "';\n", RuleIndexedSecret},
		{"settings/production.py", "SOCIAL_AUTH[\"client_secret\"] = \"" + tok() + "\"\n", RuleIndexedSecret},
		{"notebooks/setup_env.py", "import os\nos.environ[\"OPENAI_API_KEY\"] = os.getenv(\"OPENAI_KEY_FROM_VAULT\", \"\")\n", ""},
		{"settings/production.py", "SOCIAL_AUTH[\"client_secret\"] = \"${OAUTH_CLIENT_SECRET}\"\n", ""},
		{"src/store/dynamo.py", "item = {}\nitem[\"partition_key\"] = \"" + tok() + "\"\nitem[\"sort_key\"] = \"" + tok() + "\"\n", ""},
		// a token as an XML element's text
		{"jenkins_home/credentials.xml", "<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <id>sonar-token</id>\n  <secret>{" + jenkins + "}</secret>\n</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n", RuleXMLSecretElement},
		{"conf/settings.xml", "<server>\n  <id>nexus-releases</id>\n  <apiToken>" + tok() + "</apiToken>\n</server>\n", RuleXMLSecretElement},
		{"src/Web/app.config", "<appSettings>\n  <clientSecret>" + tok() + "</clientSecret>\n</appSettings>\n", RuleXMLSecretElement},
		{"tests/fixtures/list-objects.xml", "<ListObjectsV2Result>\n  <NextContinuationToken>" + tok() + "==</NextContinuationToken>\n</ListObjectsV2Result>\n", ""},
		{"templates/form.xhtml", "<form>\n  <csrfToken>" + tok() + "</csrfToken>\n</form>\n", ""},
		{"aws/sts_test.xml", "<AssumeRoleWithWebIdentityResult>\n  <SubjectFromWebIdentityToken>amzn1.account." + g.from(alphaUpper+alphaDigit, 28) + "</SubjectFromWebIdentityToken>\n</AssumeRoleWithWebIdentityResult>\n", ""},
		{"conf/settings.xml", "<server>\n  <secret>${env.NEXUS_SECRET}</secret>\n</server>\n", ""},
		{"src/main/resources/payments.xml", "<gateway name=\"adyen\">\n  <apiKey>YOUR_API_KEY</apiKey>\n</gateway>\n", ""},
		// a registry login escaped inside a string
		{".gitlab/runner.toml", "environment = [\"DOCKER_AUTH_CONFIG={\\\"auths\\\":{\\\"registry.acme.io\\\":{\\\"auth\\\":\\\"" + dockerAuth + "\\\"}}}\"]\n", RuleDockerAuth},
		{"deploy/pull-secret.json", "{\"auths\":{\"registry.acme.io\":{\"auth\":\"" + base64.StdEncoding.EncodeToString([]byte("my_username:my_password")) + "\"}}}\n", "!" + RuleDockerAuth},
		// a name on the line before "=" is prose, not an assignment
		{"docs/architecture.md", "Each tenant is identified by a routing key\n= '" + tok() + "' style opaque string that the gateway hashes.\n", ""},
		{"CHANGELOG.md", "- Fixed a crash when the pagination token\n= '" + tok() + "' was returned twice.\n", ""},
		{"scripts/publish.sh", "NPM_TOKEN='" + tok() + "'\nnpm publish --access public\n", "*"},
		// a token whose prefix reads as words
		{"config/notify.env", "NOTIFY_API_KEY=acme_cloud_org_" + g.mixed(base62, 40) + "\n", "*"},
		{"config/notify.env", "NOTIFY_TOKEN_NAME=push_notification_token_name\n", ""},
		// a name in code beside a stop word is no random run; a variable
		// joined between two strings is no value
		{"service/s3/endpoints.go", "\tparams.DisableS3ExpressSessionAuth = options.DisableS3ExpressSessionAuth\n", ""},
		{"detectors/guru.go", "req, _ := http.NewRequest(\"GET\", \"https://customer.guru/export?api_secret=\"+resIdMatch+\"&api_token=\"+resMatch, nil)\n", ""},
	}
	checkFormCases(t, cases)
}

// TestIndexedSecretFixture: a weak password in test code is a fixture
// for indexed-secret as for generic-secret, whose judgement it shares.
func TestIndexedSecretFixture(t *testing.T) {
	checkFormCases(t, []formCase{
		{"app/settings_test.py", "cfg = {}\ncfg[\"db_password\"] = \"Marigold2024!\"\n", ""},
		{"app/settings.py", "cfg = {}\ncfg[\"db_password\"] = \"Marigold2024!\"\n", RuleIndexedSecret},
		{"app/settings_test.py", "cfg = {}\ncfg[\"db_password\"] = \"" + newFakeGen("indexed-fixture").mixed(base62, 28) + "\"\n", RuleIndexedSecret},
	})
}
