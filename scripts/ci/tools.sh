#!/usr/bin/env bash
# Install the real clients the tests run against: Debian's pre-commit
# framework (testdata/script/precommit.txtar, scripts/ci/newcomer.sh),
# Debian's Neovim, whose built-in LSP client drives sotvet lsp (lsp
# TestNeovim), OpenSSL (secrets TestPKCS12OpenSSL),
# Microsoft's SARIF Multitool (cmd/sotvet TestSARIFMultitool) and actionlint
# (TestCIExamplesActionlint). Outside CI those tests skip with a message
# when the tool is missing.
set -euo pipefail
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
# apt_tool CMD PACKAGE VERSION...: PACKAGE from apt unless CMD is on the
# PATH; VERSION... prints the version.
apt_tool() {
  local cmd=$1 pkg=$2
  shift 2
  if command -v "$cmd" >/dev/null 2>&1; then
    echo "tools: $("$@" | head -1)"
  elif command -v apt-get >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$pkg" >/dev/null
    echo "tools: installed $("$@" | head -1)"
  else
    echo "tools: $cmd is missing and there is no apt-get to install it" >&2
    exit 1
  fi
}

apt_tool pre-commit pre-commit pre-commit --version
# Neovim, whose built-in LSP client lsp's TestNeovim drives sotvet lsp with.
apt_tool nvim neovim nvim --version
# OpenSSL, whose PKCS #12 stores are the oracle of secrets'
# TestPKCS12OpenSSL and testdata/script/secrets_pkcs12.txtar.
apt_tool openssl openssl openssl version

# Microsoft's SARIF Multitool (npm), which cmd/sotvet's TestSARIFMultitool
# runs over sotvet's SARIF: the rules GitHub code scanning applies.
if ! command -v Sarif.Multitool >/dev/null 2>&1; then
  if command -v npm >/dev/null 2>&1; then
    dir=/opt/sarif-multitool
    $sudo mkdir -p "$dir"
    tgz=$(cd /tmp && npm pack --silent @microsoft/sarif-multitool-linux@5.7.0)
    $sudo tar xzf "/tmp/$tgz" -C "$dir"
    rm -f "/tmp/$tgz"
    $sudo chmod +x "$dir/package/Sarif.Multitool"
    $sudo ln -sf "$dir/package/Sarif.Multitool" /usr/local/bin/Sarif.Multitool
    echo "tools: installed the SARIF Multitool 5.7.0"
  else
    echo "tools: no npm: the SARIF Multitool test will fail under CI" >&2
  fi
fi

# actionlint, which cmd/sotvet's TestCIExamplesActionlint runs over the
# GitHub Actions example of docs/ci.md.
if ! command -v actionlint >/dev/null 2>&1; then
  gobin=$(go env GOPATH)/bin
  GOBIN=$gobin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
  $sudo ln -sf "$gobin/actionlint" /usr/local/bin/actionlint
  echo "tools: installed actionlint $(actionlint -version | head -1)"
fi
