"""The projects of bench/projects.py: real C projects, each a pinned Debian bookworm source
package built with its own build system the way its README or INSTALL tells a user.

Each entry pins the package's exact Debian version and the sha256 of its .dsc (from
http://deb.debian.org/debian/dists/bookworm/main/source/Sources.xz); the .dsc pins the rest.
`build` is autotools (./configure && make, under bear), cmake (CMAKE_EXPORT_COMPILE_COMMANDS),
meson (its own compile_commands.json) or make (a plain Makefile, under bear). No flags are
added to the project's own: its default optimisation is part of what is measured.
Chosen to cover the kinds the bench asks for and to keep clear of the projects kept aside for
an independent check (hiredis, expat, pigz, memcached, htop, tmux, libuv, and any project
vendoring one) and of the other bench's corpora (lz4, zlib, Lua, SQLite, zstd).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Project:
    name: str
    kind: str
    package: str              # Debian source package
    version: str              # its exact bookworm version
    dsc_sha256: str
    build: str                # autotools | cmake | meson | make
    deps: tuple[str, ...] = ()          # Debian packages the build needs
    subdir: str = ""                    # where the build runs, below the unpacked source
    bootstrap: tuple[str, ...] = ()     # for a tree without ./configure, as its README says
    configure: tuple[str, ...] = ()     # arguments to ./configure, cmake or meson setup
    make: tuple[str, ...] = ()          # arguments to make (plain make and autotools)
    why: str = ""                       # why this build deviates from the bare default, if it does


AUTOTOOLS_DEPS = ("autoconf", "automake", "libtool", "make", "bear")

PROJECTS = (
    Project("c-ares", "network: DNS resolver library", "c-ares", "1.18.1-3",
            "91d95bb080e4cd1d0d507f4693496e323a593f6611161361fd76735292bda6b6", "cmake",
            ("cmake",), configure=("-DCMAKE_BUILD_TYPE=Release",),
            why="INSTALL.md's CMake form passes -DCMAKE_BUILD_TYPE=Release"),
    Project("libevent", "network: event notification library", "libevent", "2.1.12-stable-8",
            "a2821f5bf8adacd775317ae6a85d19097a2043ba5206fcf840387f4a2da5a2c5", "cmake",
            ("cmake", "libssl-dev")),
    Project("mosquitto", "protocol: MQTT broker and client library", "mosquitto",
            "2.0.11-1.2+deb12u2",
            "77afb2d38230b37b085ff7b363a71669951044460e28731e958c0b94019e9263", "make",
            ("make", "bear", "libssl-dev", "libcjson-dev", "xsltproc", "docbook-xsl")),
    Project("jansson", "parser: JSON library", "jansson", "2.14-2",
            "6296ddd9c0a022bd1b70074aefb171cfcdf5694a04ffd32b35fd66097621af87", "autotools",
            AUTOTOOLS_DEPS, bootstrap=("autoreconf", "-i"), make=("check",),
            why="a git snapshot: README.rst says autoreconf -i first; `make check`, its next "
                "step, builds the test programs too (the library alone is under 5k lines)"),
    Project("libyaml", "parser: YAML library", "libyaml", "0.2.5-1",
            "1edbf86e5cd76937ff62892ba6c2537456d645d834d4cd4a82430b8be7051bf4", "autotools",
            AUTOTOOLS_DEPS, bootstrap=("./bootstrap",),
            why="a git snapshot: ReadMe.md says ./bootstrap first"),
    Project("json-c", "parser: JSON library", "json-c", "0.16-2",
            "e91baf0603ed23df4c54030df4cd5e8371a7436006e2b85efab7ee4f1d9718c1", "cmake",
            ("cmake",)),
    Project("bzip2", "compression: bzip2 library and tools", "bzip2", "1.0.8-5",
            "ed9c40f4de3f9e064535e15eac1c61a0f606763db98f4579dbc04067b94a8944", "make",
            ("make", "bear")),
    Project("xz-utils", "compression: liblzma and xz", "xz-utils", "5.4.1-1+deb12u1",
            "38f98e356f7e7e89b0920d39c55dd5f3d1a9f2684bff83c8b4890561e1832e94", "autotools",
            ("make", "bear")),
    Project("brotli", "compression: brotli library and tool", "brotli", "1.0.9-2",
            "8c4c86748ec9770e08b60233d658593650444b04a452dc5b607ed5b5537b683e", "cmake",
            ("cmake",)),
    Project("lmdb", "database: memory-mapped key-value store", "lmdb", "0.9.24-1",
            "f90d1cc2b69cae56f1b465636c810f4e3667d43a2567cf3bfb48b62cb710da6e", "make",
            ("make", "bear"), subdir="libraries/liblmdb"),
    Project("gdbm", "database: GNU dbm", "gdbm", "1.23-3",
            "3e4a52655a1b65c51d33e032913edda3423dcae8cc282c16a455a0afd2d2738d", "autotools",
            ("make", "bear", "libreadline-dev")),
    Project("mbedtls", "crypto/TLS: TLS library", "mbedtls", "2.28.3-1",
            "a8bf91b5ffb40654efb0ebe0c962ac1e87b8eed5e104880982eaa70dd4bb33e3", "make",
            ("make", "bear", "python3", "perl"), make=("no_test",),
            why="README's plain make (-O2; its CMake has no default build type); `make no_test` "
                "as README says: the generated test suites alone are 234k lines"),
    Project("libsodium", "crypto: cryptography library", "libsodium", "1.0.18-1+deb12u1",
            "2c23c57b5a9385dab5a1916014c9b5f2cdd7dadeb8a35b28c1bfb603ce7095c4", "autotools",
            AUTOTOOLS_DEPS, bootstrap=("./autogen.sh",),
            why="a git snapshot: autogen.sh makes ./configure"),
    Project("dnsmasq", "daemon: DNS forwarder and DHCP server", "dnsmasq", "2.90-4~deb12u2",
            "e962782cd9f298a8c6a92ce6f7434629268f53ddbd9908d40d0bec5f08381c5c", "make",
            ("make", "bear")),
    Project("socat", "system tool: multipurpose relay", "socat", "1.7.4.4-2",
            "d69a6c1c1f3e36959b3f43b0383c537a924e5f0dcae6f803621aef9491a71e5a", "autotools",
            ("make", "bear", "libssl-dev", "libreadline-dev", "libwrap0-dev")),
    Project("lighttpd", "daemon: web server", "lighttpd", "1.4.69-1",
            "79de5cd54b9876b135f85fb617cca2dbd2df79b63563f7fa02851a1a516587db", "meson",
            ("meson", "ninja-build", "pkg-config", "libpcre2-dev", "zlib1g-dev"),
            configure=("-Dbuildtype=debugoptimized",),
            why="meson.build's own 'optimized build' comment: buildtype=debugoptimized"),
    Project("jq", "application: JSON processor", "jq", "1.6-2.1+deb12u2",
            "ac53e4e0af865fd228e47c26a6d9a34da459fd4fbc2ab90815147dfeedf6ded0", "autotools",
            AUTOTOOLS_DEPS + ("libonig-dev",), bootstrap=("autoreconf", "-fi"),
            configure=("--disable-maintainer-mode",),
            why="README.md: autoreconf -fi from git; --disable-maintainer-mode keeps the "
                "shipped parser.c and lexer.c"),
    Project("nano", "application: text editor", "nano", "7.2-1+deb12u1",
            "e7ec15144ec5b984681d079ea4e3a0f6f17eb92895376511df6822bd770e7281", "autotools",
            ("make", "bear", "libncurses-dev")),
    Project("librdkafka", "network: Apache Kafka client library", "librdkafka", "2.0.2-1",
            "88eb09e84f3d838676c45d2db47633923d069b8605f6b4b48895155ab2b4c64f", "autotools",
            ("make", "bear", "pkg-config", "libssl-dev", "libsasl2-dev", "libzstd-dev",
             "liblz4-dev", "zlib1g-dev", "python3")),
    Project("unbound", "daemon: validating DNS resolver", "unbound", "1.17.1-2+deb12u4",
            "7833b82f7a888354c672dd743c19551325cb745e9a70793e90f4c9493ebaa065", "autotools",
            ("make", "bear", "libssl-dev", "libexpat1-dev", "bison", "flex"),
            why="its Makefile regenerates the configuration parser: bison and flex"),
    Project("nng", "network: nanomsg-next-gen messaging library", "nng", "1.5.2-2",
            "87a37a521f7726937c58e670bd6b78bad14b9373f7fe600fa7ef7f11aeb76bfe", "cmake",
            ("cmake",)),
    Project("multipath-tools", "system tool: device-mapper multipath daemon and tools",
            "multipath-tools", "0.9.4-3+deb12u2",
            "5d0d7c1327a5748789e83fa4da03b464429a23f000134f13a35691f25abaa258", "make",
            ("make", "bear", "pkg-config", "libaio-dev", "libdevmapper-dev", "libedit-dev",
             "libjson-c-dev", "libsystemd-dev", "libudev-dev", "liburcu-dev", "systemd")),
)

BY_NAME = {p.name: p for p in PROJECTS}
