#!/usr/bin/env python3
"""Draw random, valid-looking credentials in documented provider formats and
write each into several realistic file contexts, one sample per file.

usage: python3 gen.py --seed N --out DIR [--count 300] [--only fmt1,fmt2]

Layout: DIR/<format>/<context>_<n>.<ext>, plus DIR/manifest.jsonl with one
record per file: format, context, n, file, value, targets (list of
[name, first_line, last_line], 1-based) -- the lines a finding should land on.
"""
import argparse, base64, binascii, json, os, random, string, zlib

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
B62 = DIG + UP + LO
ALNUM = UP + LO + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B32 = UP + "234567"
B64 = UP + LO + DIG + "+/"
B64URL = UP + LO + DIG + "-_"

R = random.Random(0)


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def b62enc(num, width):
    out = ""
    while num:
        num, r = divmod(num, 62)
        out = B62[r] + out
    return out.rjust(width, "0")


def gh_token(prefix):
    # GitHub: prefix + 30 random base62 + 6-char base62 CRC32 checksum
    body = rs(ALNUM, 30)
    return prefix + body + b62enc(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def b64url_nopad(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def jwt():
    hdr = b64url_nopad(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": str(R.randint(10**6, 10**9)), "name": rs(LO, R.randint(4, 9)),
              "iat": R.randint(1600000000, 1750000000), "role": R.choice(["admin", "user", "svc"])}
    pl = b64url_nopad(json.dumps(claims, separators=(",", ":")).encode())
    sig = b64url_nopad(R.randbytes(32))
    return hdr + "." + pl + "." + sig


def discord_bot():
    uid = str(R.randint(10**17, 2 * 10**18))
    return b64url_nopad(uid.encode()) + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)


def sentry_org():
    org = rs(LO, R.randint(4, 10))
    j = {"iat": round(R.uniform(1.69e9, 1.75e9), 6), "url": "https://sentry.io",
         "region_url": "https://us.sentry.io", "org": org}
    return "sntrys_" + b64url_nopad(json.dumps(j, separators=(",", ":")).encode()) + "_" + rs(B64URL.replace("-", "").replace("_", "") + "+/", 43)


PW_SYMS = "{}()[]!#$%&*+=?@^~"


def password():
    n = R.randint(14, 28)
    alpha = ALNUM + PW_SYMS
    while True:
        p = rs(alpha, n)
        if (any(c in PW_SYMS for c in p) and any(c.isdigit() for c in p)
                and any(c.isupper() for c in p) and any(c.islower() for c in p)):
            return p


def url_password():
    # RFC 3986 userinfo: unreserved chars plus sub-delims; keep it URL-safe
    n = R.randint(12, 24)
    while True:
        p = rs(ALNUM + "-._~!$*+", n)
        if any(c.isdigit() for c in p) and any(c.isalpha() for c in p):
            return p


def url_cred():
    scheme, port, path = R.choice([("postgres", 5432, "/appdb"), ("postgresql", 5432, "/orders"),
                                   ("mysql", 3306, "/shop"), ("mongodb+srv", None, "/prod?retryWrites=true"),
                                   ("redis", 6379, "/0"), ("amqp", 5672, "/vhost"), ("https", None, "/repo.git")])
    user = R.choice(["app", "admin", "svc_" + rs(LO, 4), "deploy", rs(LO, 6)])
    host = R.choice(["db", "cache", "mq", "git", "cluster0"]) + "-" + rs(LO + DIG, 5) + "." + R.choice(
        ["internal.acme-corp.net", "prod.rds.amazonaws.com", "mongodb.net", "corp.lan"])
    hp = host + (":%d" % port if port else "")
    return "%s://%s:%s@%s%s" % (scheme, user, url_password(), hp, path)


def pem(kind):
    nbytes = {"RSA PRIVATE KEY": 1190, "PRIVATE KEY": 1217, "EC PRIVATE KEY": 121,
              "OPENSSH PRIVATE KEY": 400}[kind]
    body = base64.b64encode(R.randbytes(nbytes)).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)] if kind != "OPENSSH PRIVATE KEY" else \
        [body[i:i + 70] for i in range(0, len(body), 70)]
    return "\n".join(["-----BEGIN %s-----" % kind] + lines + ["-----END %s-----" % kind])


def azure_conn():
    acct = rs(LO + DIG, R.randint(6, 20))
    key = base64.b64encode(R.randbytes(64)).decode()
    return "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (acct, key)


def uuid4():
    h = rs(HEXL, 32)
    return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], R.choice("89ab"), h[17:20], h[20:])


# name, env var name, generator, note (doc certainty)
F = [
    ("aws-akid", "AWS_ACCESS_KEY_ID", lambda: "AKIA" + rs(B32, 16), "AKIA+16 [A-Z2-7]; secret key line follows"),
    ("aws-asia", "AWS_ACCESS_KEY_ID", lambda: "ASIA" + rs(B32, 16), "temporary creds ASIA"),
    ("github-ghp", "GITHUB_TOKEN", lambda: gh_token("ghp_"), "30 base62 + crc32 base62(6)"),
    ("github-gho", "GITHUB_OAUTH_TOKEN", lambda: gh_token("gho_"), ""),
    ("github-ghs", "GH_APP_TOKEN", lambda: gh_token("ghs_"), ""),
    ("github-ghu", "GH_USER_TOKEN", lambda: gh_token("ghu_"), ""),
    ("github-ghr", "GH_REFRESH_TOKEN", lambda: gh_token("ghr_"), ""),
    ("github-pat-fine", "GITHUB_PAT", lambda: "github_pat_" + rs(ALNUM, 22) + "_" + rs(ALNUM, 59), "22+59"),
    ("gitlab-glpat", "GITLAB_TOKEN", lambda: "glpat-" + rs(ALNUM + "-_", 20), "legacy 20-char"),
    ("gitlab-glpat-routable", "GITLAB_TOKEN", lambda: "glpat-" + rs(B64URL, 27) + ".01." + rs(LO + DIG, 9), "routable; unsure of exact tail"),
    ("gitlab-glrt", "RUNNER_TOKEN", lambda: "glrt-" + rs(ALNUM + "-_", 20), ""),
    ("gitlab-gldt", "DEPLOY_TOKEN", lambda: "gldt-" + rs(ALNUM + "-_", 20), ""),
    ("slack-xoxb", "SLACK_BOT_TOKEN", lambda: "xoxb-%s-%s-%s" % (rs(DIG, R.choice([10, 11, 12, 13])), rs(DIG, R.choice([12, 13])), rs(ALNUM, 24)), ""),
    ("slack-xoxp", "SLACK_USER_TOKEN", lambda: "xoxp-%s-%s-%s-%s" % (rs(DIG, R.choice([10, 11, 12, 13])), rs(DIG, R.choice([12, 13])), rs(DIG, 13), rs(HEXL, 32)), ""),
    ("slack-xapp", "SLACK_APP_TOKEN", lambda: "xapp-1-A%s-%s-%s" % (rs(UP + DIG, 10), rs(DIG, 13), rs(HEXL, 64)), ""),
    ("slack-webhook", "SLACK_WEBHOOK_URL", lambda: "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UP + DIG, 10), rs(UP + DIG, 10), rs(ALNUM, 24)), ""),
    ("stripe-sk-live-24", "STRIPE_SECRET_KEY", lambda: "sk_live_" + rs(ALNUM, 24), "legacy 24"),
    ("stripe-sk-live-99", "STRIPE_SECRET_KEY", lambda: "sk_live_51" + rs(ALNUM, 97), "current 99"),
    ("stripe-rk-live", "STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + rs(ALNUM, 97), ""),
    ("stripe-whsec", "STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + rs(ALNUM, 32), ""),
    ("openai-proj", "OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74), "sk-proj-..T3BlbkFJ.."),
    ("openai-legacy", "OPENAI_API_KEY", lambda: "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20), ""),
    ("openai-svcacct", "OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74), ""),
    ("anthropic-api03", "ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64URL, 93) + "AA", ""),
    ("anthropic-admin01", "ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64URL, 93) + "AA", ""),
    ("google-api-key", "GOOGLE_API_KEY", lambda: "AIza" + rs(B64URL, 35), ""),
    ("google-oauth-secret", "GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + rs(B64URL, 28), ""),
    ("twilio-sk", "TWILIO_API_KEY", lambda: "SK" + rs(HEXL, 32), ""),
    ("twilio-auth", "TWILIO_AUTH_TOKEN", lambda: rs(HEXL, 32), "AC sid line + 32 hex"),
    ("sendgrid", "SENDGRID_API_KEY", lambda: "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43), ""),
    ("npm", "NPM_TOKEN", lambda: gh_token("npm_"), "36; checksum assumed like GitHub"),
    ("pypi", "PYPI_TOKEN", lambda: "pypi-AgEIcHlwaS5vcmc" + b64url_nopad(R.randbytes(R.randint(100, 160))), ""),
    ("shopify-shpat", "SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + rs(HEXL, 32), ""),
    ("shopify-shpss", "SHOPIFY_SHARED_SECRET", lambda: "shpss_" + rs(HEXL, 32), ""),
    ("atlassian", "ATLASSIAN_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(B64URL, 170) + "=" + rs(HEXU, 8), "shape approximate"),
    ("huggingface", "HF_TOKEN", lambda: "hf_" + rs(UP + LO, 34), ""),
    ("huggingface-org", "HF_ORG_TOKEN", lambda: "api_org_" + rs(UP + LO, 34), ""),
    ("digitalocean-dop", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + rs(HEXL, 64), ""),
    ("digitalocean-doo", "DO_OAUTH_TOKEN", lambda: "doo_v1_" + rs(HEXL, 64), ""),
    ("linear", "LINEAR_API_KEY", lambda: "lin_api_" + rs(ALNUM, 40), ""),
    ("postman", "POSTMAN_API_KEY", lambda: "PMAK-" + rs(HEXL, 24) + "-" + rs(HEXL, 34), ""),
    ("doppler", "DOPPLER_TOKEN", lambda: "dp.pt." + rs(ALNUM, 43), ""),
    ("doppler-st", "DOPPLER_TOKEN", lambda: "dp.st." + rs(LO, R.randint(3, 8)) + "." + rs(ALNUM, 40), "unsure"),
    ("vault-hvs-short", "VAULT_TOKEN", lambda: "hvs." + rs(ALNUM, 24), ""),
    ("vault-hvs-long", "VAULT_TOKEN", lambda: "hvs.CAESI" + rs(B64URL, 86), ""),
    ("vault-hvb", "VAULT_TOKEN", lambda: "hvb.AAAAAQ" + rs(B64URL, 130), "unsure length"),
    ("databricks", "DATABRICKS_TOKEN", lambda: "dapi" + rs(HEXL, 32), ""),
    ("grafana-glsa", "GRAFANA_SA_TOKEN", lambda: "glsa_" + rs(ALNUM, 32) + "_" + rs(HEXL, 8), ""),
    ("grafana-glc", "GRAFANA_CLOUD_TOKEN", lambda: "glc_" + b64url_nopad(json.dumps({"o": str(R.randint(10**5, 10**7)), "n": "stack-" + rs(LO, 5) + "-" + rs(LO, 4), "k": rs(ALNUM, 24), "m": {"r": "prod-us-east-0"}}, separators=(",", ":")).encode()), ""),
    ("newrelic-nrak", "NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(UP + DIG, 27), ""),
    ("newrelic-nrii", "NEW_RELIC_INSERT_KEY", lambda: "NRII-" + rs(B64URL, 32), ""),
    ("sentry-sntrys", "SENTRY_AUTH_TOKEN", sentry_org, ""),
    ("sentry-sntryu", "SENTRY_AUTH_TOKEN", lambda: "sntryu_" + rs(HEXL, 64), ""),
    ("mailgun", "MAILGUN_API_KEY", lambda: "key-" + rs(HEXL, 32), ""),
    ("mailchimp", "MAILCHIMP_API_KEY", lambda: rs(HEXL, 32) + "-us" + str(R.randint(1, 21)), ""),
    ("discord-bot", "DISCORD_BOT_TOKEN", discord_bot, ""),
    ("telegram-bot", "TELEGRAM_BOT_TOKEN", lambda: str(R.randint(10**8, 8 * 10**9)) + ":AA" + rs(B64URL, 33), ""),
    ("jwt", "AUTH_JWT", jwt, ""),
    ("azure-storage-conn", "AZURE_STORAGE_CONNECTION_STRING", azure_conn, ""),
    ("azure-ad-secret", "AZURE_CLIENT_SECRET", lambda: rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "_.~-", 34), "3+8Q~+34"),
    ("heroku-hrku", "HEROKU_API_KEY", lambda: "HRKU-AA" + rs(B64URL, 58), "unsure length"),
    ("heroku-uuid", "HEROKU_API_KEY", uuid4, ""),
    ("datadog-api", "DD_API_KEY", lambda: rs(HEXL, 32), ""),
    ("cloudflare-token", "CLOUDFLARE_API_TOKEN", lambda: rs(ALNUM + "-_", 40), ""),
    ("notion-ntn", "NOTION_TOKEN", lambda: "ntn_" + rs(DIG, 11) + rs(ALNUM, 35), "approx"),
    ("notion-secret", "NOTION_TOKEN", lambda: "secret_" + rs(ALNUM, 43), ""),
    ("airtable-pat", "AIRTABLE_TOKEN", lambda: "pat" + rs(ALNUM, 14) + "." + rs(HEXL, 64), ""),
    ("figma", "FIGMA_TOKEN", lambda: "figd_" + rs(B64URL, 40), ""),
    ("terraform-cloud", "TFE_TOKEN", lambda: rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM + "-_", 67), ""),
    ("pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + rs(HEXL, 40), ""),
    ("dockerhub", "DOCKERHUB_TOKEN", lambda: "dckr_pat_" + rs(B64URL, 27), ""),
    ("supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + rs(HEXL, 40), ""),
    ("groq", "GROQ_API_KEY", lambda: "gsk_" + rs(ALNUM, 52), ""),
    ("xai", "XAI_API_KEY", lambda: "xai-" + rs(ALNUM, 80), ""),
    ("perplexity", "PERPLEXITY_API_KEY", lambda: "pplx-" + rs(ALNUM, 48), ""),
    ("replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + rs(ALNUM, 37), ""),
    ("openrouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + rs(HEXL, 64), ""),
    ("langsmith", "LANGSMITH_API_KEY", lambda: "lsv2_pt_" + rs(HEXL, 32) + "_" + rs(HEXL, 10), ""),
    ("nvidia-nvapi", "NVIDIA_API_KEY", lambda: "nvapi-" + rs(B64URL, 64), ""),
    ("tailscale", "TS_AUTHKEY", lambda: "tskey-auth-k" + rs(ALNUM, 10) + "CNTRL-" + rs(ALNUM, 33), ""),
    ("sonar", "SONAR_TOKEN", lambda: "squ_" + rs(HEXL, 40), ""),
    ("age", "SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), ""),
    ("rubygems", "GEM_HOST_API_KEY", lambda: "rubygems_" + rs(HEXL, 48), ""),
    ("planetscale", "PLANETSCALE_TOKEN", lambda: "pscale_tkn_" + rs(ALNUM + "_", 43), ""),
    ("sendinblue", "BREVO_API_KEY", lambda: "xkeysib-" + rs(HEXL, 64) + "-" + rs(ALNUM, 16), ""),
    ("artifactory", "ARTIFACTORY_API_KEY", lambda: "AKCp" + rs(ALNUM, 69), ""),
    ("dynatrace", "DT_API_TOKEN", lambda: "dt0c01." + rs(UP + DIG, 24) + "." + rs(UP + DIG, 64), ""),
    ("bitbucket-atbb", "BITBUCKET_APP_PASSWORD", lambda: "ATBB" + rs(ALNUM, 32) + rs(HEXU, 8), ""),
    ("shippo", "SHIPPO_API_TOKEN", lambda: "shippo_live_" + rs(HEXL, 40), ""),
    ("easypost", "EASYPOST_API_KEY", lambda: "EZAK" + rs(ALNUM, 54), ""),
    ("buildkite", "BUILDKITE_API_TOKEN", lambda: "bkua_" + rs(HEXL, 40), ""),
    ("1password-sa", "OP_SERVICE_ACCOUNT_TOKEN", lambda: "ops_eyJ" + rs(B64URL, 250), "approx"),
    ("generic-api-key-b62", "API_KEY", lambda: rs(ALNUM, R.randint(32, 40)), "generic name"),
    ("generic-secret-b64url", "SECRET", lambda: rs(B64URL, R.randint(32, 40)), "generic name"),
    ("generic-token-b62", "TOKEN", lambda: rs(ALNUM, R.randint(32, 40)), "generic name"),
    ("generic-client-secret-b64", "CLIENT_SECRET", lambda: base64.b64encode(R.randbytes(R.choice([24, 27, 30]))).decode(), "generic name"),
    ("url-credentials", "DATABASE_URL", url_cred, "scheme://user:pass@host"),
    ("password-assign", "DB_PASSWORD", password, "symbols {}()[]!#$%&*+=?@^~"),
    ("pem-rsa", None, lambda: pem("RSA PRIVATE KEY"), ""),
    ("pem-pkcs8", None, lambda: pem("PRIVATE KEY"), ""),
    ("pem-ec", None, lambda: pem("EC PRIVATE KEY"), ""),
    ("pem-openssh", None, lambda: pem("OPENSSH PRIVATE KEY"), ""),
]

CONTEXTS = ["env", "yaml", "json", "py", "js", "go", "md"]
PW_CONTEXTS = ["env", "yaml", "json", "py", "js", "go", "md", "xml", "ini"]
PEM_CONTEXTS = ["pem", "yaml", "json", "py", "env", "md"]


def camel(name):
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def yaml_key(name):
    return name.lower()


def jq(v):
    return json.dumps(v)


def render(fmt, ctx, name, v, extra):
    """Return (text, [(target_name, first_line, last_line)])."""
    if fmt.startswith("pem-"):
        return render_pem(ctx, v)
    if fmt == "password-assign":
        return render_pw(ctx, v)
    lines = []
    T = []

    def add(line, target=None):
        lines.append(line)
        if target:
            T.append((target, len(lines), len(lines)))

    key = yaml_key(name)
    if ctx == "env":
        add("# service configuration")
        add("APP_ENV=production")
        add("LOG_LEVEL=info")
        for (en, ev, tn) in extra:
            add("%s=%s" % (en, ev), tn)
        add("%s=%s" % (name, v), "value")
        add("PORT=8080")
    elif ctx == "yaml":
        add("service:")
        add("  name: billing-worker")
        add("  replicas: 2")
        add("  credentials:")
        for (en, ev, tn) in extra:
            add("    %s: %s" % (yaml_key(en), jq(ev)), tn)
        add("    %s: %s" % (key, jq(v)), "value")
        add("  timeout: 30s")
    elif ctx == "json":
        add("{")
        add('  "service": "billing-worker",')
        add('  "region": "eu-west-1",')
        for (en, ev, tn) in extra:
            add('  "%s": %s,' % (camel(en), jq(ev)), tn)
        add('  "%s": %s,' % (camel(name), jq(v)), "value")
        add('  "retries": 3')
        add("}")
    elif ctx == "py":
        add("import os")
        add("")
        add("TIMEOUT = 30")
        for (en, ev, tn) in extra:
            add("%s = %s" % (en, jq(ev)), tn)
        add("%s = %s" % (name, jq(v)), "value")
        add("")
        add("def client():")
        add("    return make_client(%s, timeout=TIMEOUT)" % name)
    elif ctx == "js":
        add("const config = {")
        add("  region: 'us-east-1',")
        for (en, ev, tn) in extra:
            add("  %s: '%s'," % (camel(en), ev), tn)
        add("  %s: '%s'," % (camel(name), v), "value")
        add("  retries: 3,")
        add("};")
        add("module.exports = config;")
    elif ctx == "go":
        add("package config")
        add("")
        add("const (")
        add('\tRegion = "us-east-1"')
        for (en, ev, tn) in extra:
            add("\t%s = %s" % (camel(en)[0].upper() + camel(en)[1:], jq(ev)), tn)
        gname = camel(name)[0].upper() + camel(name)[1:]
        add("\t%s = %s" % (gname, jq(v)), "value")
        add(")")
    elif ctx == "md":
        add("# Deployment notes")
        add("")
        add("The nightly job runs from the ops runner; credentials are below.")
        add("")
        for (en, ev, tn) in extra:
            add("- %s for the billing worker is `%s`" % (en.replace("_", " ").lower(), ev), tn)
        add("- The %s for the billing worker is `%s`, rotate it after the release." % (name.replace("_", " ").lower(), v), "value")
        add("- Ask #ops before changing anything.")
    return "\n".join(lines) + "\n", T


def render_pw(ctx, v):
    lines, T = [], []

    def add(line, t=None):
        lines.append(line)
        if t:
            T.append((t, len(lines), len(lines)))
    if ctx == "env":
        add("DB_HOST=db.internal")
        add("DB_USER=app")
        add('DB_PASSWORD="%s"' % v, "value")
    elif ctx == "yaml":
        add("database:")
        add("  host: db.internal")
        add("  user: app")
        add("  password: '%s'" % v, "value")
    elif ctx == "json":
        add("{")
        add('  "host": "db.internal",')
        add('  "user": "app",')
        add('  "password": %s' % jq(v), "value")
        add("}")
    elif ctx == "py":
        add("DB_USER = 'app'")
        add("DB_PASSWORD = %s" % jq(v), "value")
    elif ctx == "js":
        add("const db = {")
        add("  user: 'app',")
        add("  password: '%s'," % v, "value")
        add("};")
    elif ctx == "go":
        add("package db")
        add("")
        add("var dbUser = \"app\"")
        add("var dbPassword = %s" % jq(v), "value")
    elif ctx == "md":
        add("## Staging database")
        add("")
        add("- host: db.internal, user: app")
        add("- password: %s" % v, "value")
    elif ctx == "xml":
        add("<datasource>")
        add("  <username>app</username>")
        add("  <password>%s</password>" % v.replace("&", "&amp;"), "value")
        add("</datasource>")
    elif ctx == "ini":
        add("[database]")
        add("host = db.internal")
        add("user = app")
        add("password = %s" % v, "value")
    return "\n".join(lines) + "\n", T


def render_pem(ctx, v):
    pl = v.split("\n")
    lines, T = [], []
    if ctx == "pem":
        lines = pl[:]
        start = 1
    elif ctx == "yaml":
        lines = ["tls:", "  cert_file: /etc/tls/server.crt", "  private_key: |"]
        start = len(lines) + 1
        lines += ["    " + x for x in pl]
    elif ctx == "json":
        lines = ["{", '  "type": "service_account",', '  "private_key": %s,' % jq(v + "\n"), '  "client_email": "svc@example-proj.iam.gserviceaccount.com"', "}"]
        T.append(("value", 3, 3))
        return "\n".join(lines) + "\n", T
    elif ctx == "py":
        lines = ["SIGNING_KEY = '''" + pl[0]] + pl[1:] + ["'''"]
        start = 1
    elif ctx == "env":
        lines = ['PRIVATE_KEY="%s"' % v.replace("\n", "\\n")]
        T.append(("value", 1, 1))
        return "\n".join(lines) + "\n", T
    elif ctx == "md":
        lines = ["# Server key", "", "```"]
        start = len(lines) + 1
        lines += pl + ["```"]
    T.append(("value", start, start + len(pl) - 1))
    return "\n".join(lines) + "\n", T


EXT = {"env": "env", "yaml": "yaml", "json": "json", "py": "py", "js": "js", "go": "go", "md": "md",
       "xml": "xml", "ini": "ini", "pem": "pem"}


def main():
    global R
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/draws/out")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for f in F:
            print(f[0], "-", f[3])
        return
    R = random.Random(a.seed)
    only = set(a.only.split(",")) if a.only else None
    os.makedirs(a.out, exist_ok=True)
    man = open(os.path.join(a.out, "manifest.jsonl"), "w")
    for fmt, name, gen, note in F:
        if only and fmt not in only:
            continue
        d = os.path.join(a.out, fmt)
        os.makedirs(d, exist_ok=True)
        ctxs = PEM_CONTEXTS if fmt.startswith("pem-") else PW_CONTEXTS if fmt == "password-assign" else CONTEXTS
        for n in range(a.count):
            v = gen()
            extra = []
            if fmt in ("aws-akid", "aws-asia"):
                extra_after = ("AWS_SECRET_ACCESS_KEY", rs(B64, 40), "aws-secret")
            elif fmt == "twilio-auth":
                extra = [("TWILIO_ACCOUNT_SID", "AC" + rs(HEXL, 32), "twilio-sid")]
                extra_after = None
            else:
                extra_after = None
            for ctx in ctxs:
                if extra_after:
                    # value first, then the secret key line
                    text, T = render(fmt, ctx, name, v, [])
                    # re-render with secret after by swapping: simplest is render with extra
                    text, T = render_with_after(fmt, ctx, name, v, extra_after)
                else:
                    text, T = render(fmt, ctx, name, v, extra)
                fn = "%s_%04d.%s" % (ctx, n, EXT[ctx])
                with open(os.path.join(d, fn), "w") as fh:
                    fh.write(text)
                man.write(json.dumps({"format": fmt, "context": ctx, "n": n, "file": fn, "value": v,
                                      "targets": T}) + "\n")
    man.close()


def render_with_after(fmt, ctx, name, v, after):
    # render value line first, then the paired secret line
    en, ev, tn = after
    text, T = render(fmt, ctx, name, v, [("__VALUE__", v, None)])
    # render placed extra before value; instead build with swapped roles
    text2, T2 = render(fmt, ctx, en, ev, [(name, v, "value")])
    T2 = [(tn if t == "value" and i == len(T2) - 1 else t, a, b) for i, (t, a, b) in enumerate(T2)]
    return text2, T2


if __name__ == "__main__":
    main()
