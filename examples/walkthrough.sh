#!/usr/bin/env bash
# The walkthrough of docs/site-imports.md as one script, against a running `npm start`.
# Needs curl, jq and ssh-keygen; SKIFF_API_KEY is the key printed on first run; SKIFF_URL defaults to
# http://localhost:4000. Each import answers 200 (success) or 422 (partial/failed) with the import result.
set -euo pipefail
cd "$(dirname "$0")"
: "${SKIFF_API_KEY:?set SKIFF_API_KEY to the API key printed by the first npm start}"
URL=${SKIFF_URL:-http://localhost:4000}
gql() { curl -s "$URL/graphql" -H 'content-type: application/json' -H "authorization: Bearer $SKIFF_API_KEY" -d @-; }

echo "# 1. The organization the API key is bound to"
ORG=$(echo '{"query":"{ viewer { activeOrganization { id } } }"}' | gql | jq -r .data.viewer.activeOrganization.id)
echo "ORG=$ORG"

echo "# 2. Prerequisites: a container registry, a GitHub provider and an SSH key"
jq -n --arg org "$ORG" '{query: "mutation($i: CreateContainerRegistryInput!) { createContainerRegistry(input: $i) { id url } }",
  variables: {i: {organizationId: $org, name: "ghcr", url: "ghcr.io/acme", username: "bot", password: "registry-token"}}}' | gql
echo
GITHUB_PROVIDER_ID=$(jq -n --arg org "$ORG" '{query: "mutation($i: CreateGitProviderInput!) { createGitProvider(input: $i) { id } }",
  variables: {i: {organizationId: $org, type: "github", name: "acme on GitHub"}}}' | gql | jq -r .data.createGitProvider.id)
echo "GITHUB_PROVIDER_ID=$GITHUB_PROVIDER_ID"
KEY_DIR=$(mktemp -d)
ssh-keygen -q -t ed25519 -N '' -C deploy@skiff -f "$KEY_DIR/deploy"
SSH_KEY_ID=$(jq -n --arg org "$ORG" --rawfile pub "$KEY_DIR/deploy.pub" --rawfile key "$KEY_DIR/deploy" \
  '{query: "mutation($i: CreateSshKeyInput!) { createSshKey(input: $i) { id publicKey } }",
    variables: {i: {organizationId: $org, name: "deploy", publicKey: $pub, privateKey: $key}}}' | gql | jq -r .data.createSshKey.id)
rm -r "$KEY_DIR"
echo "SSH_KEY_ID=$SSH_KEY_ID"

fill() { sed -e "s/ORG_ID/$ORG/" -e "s/GITHUB_PROVIDER_ID/$GITHUB_PROVIDER_ID/" -e "s/SSH_KEY_ID/$SSH_KEY_ID/" "$1"; }
post() { curl -s -w ' (HTTP %{http_code})\n' "$URL$1" -H 'content-type: application/json' -H "authorization: Bearer $SKIFF_API_KEY" -d @-; }

echo "# 3. Preview, then import each example"
fill github-mariadb-domain.json | post /api/site-import/preview
for example in docker-postgres.json github-mariadb-domain.json git-ssh-key.json; do
  fill "$example" | post /api/site-import
done

echo "# 4. History"
curl -s "$URL/api/site-import?limit=3" -H "authorization: Bearer $SKIFF_API_KEY" | jq -c '.[] | {id, name, status, errorStep}'
