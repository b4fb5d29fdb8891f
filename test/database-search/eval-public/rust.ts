/**
 * Public error literals from Rust: cargo, rustc and crates, each with the
 * address of the thread it was posted in. Several share one template with
 * other crate names: near duplicates that only the names tell apart.
 */
import type { PublicCase } from './public-case.ts';

export const RUST_CASES: PublicCase[] = [
  {
    id: 'pub2-cargo-select-clap-cargo-edit',
    source: 'https://github.com/killercup/cargo-edit/issues/861',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'cargo-edit does not build: clap 4 requirement with an old cargo',
    literal:
      'error: failed to select a version for the requirement `clap = "^4.3.10"`\ncandidate versions found which didn\'t match: 3.2.25, 3.2.24, 3.2.23, ...\nlocation searched: crates.io index\nrequired by package `cargo-edit v0.12.0 (/Users/octavei/Desktop/rs-test/cargo-edit)`',
    body: 'cargo 1.57 cannot read the index entries of clap 4, which use newer manifest features, so it sees only clap 3 versions.',
    solution: 'Update the toolchain (rustup update) so cargo understands the newer index entries.',
    symptom: 'old cargo cannot find clap 4 when building cargo-edit',
  },
  {
    id: 'pub2-cargo-select-tracing-bunyan',
    source: 'https://github.com/LukeMathWalker/zero-to-production/issues/210',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'docker build of zero2prod cannot select tracing-bunyan-formatter',
    literal:
      "error: failed to select a version for the requirement 'tracing-bunyan-formatter = \"^0.3\"'\ncandidate versions found which didn't match: 0.3.6, 0.3.4, 0.3.3, ...\nlocation searched: crates.io index\nrequired by package 'zero2prod v0.1.0 (/app)'",
    body: 'Inside the Docker build an outdated cargo-chef image with the git registry protocol resolves against a stale index.',
    solution: 'Use the latest cargo-chef base image, which defaults to the sparse registry protocol.',
    symptom: 'tracing-bunyan-formatter version not found only inside docker build',
  },
  {
    id: 'pub2-cargo-select-fragile-gtk',
    source: 'https://github.com/maekawatoshiki/naglfar/issues/5',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'Old gtk 0.5 chain asks for fragile 0.3, which is no longer published',
    literal:
      'error: failed to select a version for the requirement `fragile = "^0.3"`\ncandidate versions found which didn\'t match: 2.0.0, 1.2.2\nlocation searched: crates.io index\nrequired by package `gio v0.5.0`\n    ... which satisfies dependency `gio = "^0.5.0"` of package `gdk v0.9.0`',
    body: 'Without a Cargo.lock the old gtk/gdk/gio chain resolves fresh and fragile 0.3 was yanked.',
    solution: 'Build with the committed Cargo.lock that pins the versions that still resolve.',
    symptom: 'gio gdk gtk dependency wants yanked fragile crate',
  },
  {
    id: 'pub2-cargo-links-openblas',
    source: 'https://github.com/rust-lang/cargo/issues/8249',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'Two openblas-src versions both link the native openblas library',
    literal:
      'error: failed to select a version for `openblas-src`.\n    ... required by package `blas-src v0.2.1`\n    ... which is depended on by `ndarray v0.13.1`\nversions that meet the requirements `^0.6` are: 0.6.1, 0.6.0\n\nthe package `openblas-src` links to the native library `openblas`, but it conflicts with a previous package which links to `openblas` as well:\npackage `openblas-src v0.9.0`',
    body: 'ndarray-linalg pulls an older openblas-src than the project; only one package may link a native library.',
    solution:
      'Align the openblas-src version with what ndarray-linalg/blas-src require, so one version links openblas.',
    symptom: 'cargo two versions of openblas-src conflict native library links',
  },
  {
    id: 'pub2-cargo-select-swc',
    source: 'https://github.com/swc-project/swc/issues/9433',
    ecosystem: 'rust',
    product: 'swc',
    title: 'Building swc from a fresh clone cannot select swc itself',
    literal: 'error: failed to select a version for the requirement `swc = "^0.284.0"`',
    body: 'A workspace member asks for a published swc version that the local index does not have yet.',
    solution: 'Update the registry index (cargo update) or build from the matching release tag.',
    symptom: 'cloning swc and cargo build cannot find swc 0.284',
  },
  {
    id: 'pub2-cargo-install-ghciwatch',
    source: 'https://github.com/MercuryTechnologies/ghciwatch/issues/311',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'cargo install ghciwatch fails on cargo 1.57',
    literal:
      'error: failed to compile `ghciwatch v1.0.1`, intermediate artifacts can be found at `/var/folders/x4/l1vp0nnd44j1f6v7qyntlcvr0000gn/T/cargo-installhXlvOZ`\n\nCaused by:\n  failed to select a version for the requirement `aho-corasick = "^1.0.2"`\n  candidate versions found which didn\'t match: 0.7.20, 0.7.19, 0.7.18, ...',
    body: 'The installed cargo is too old for the index entries of aho-corasick 1.x.',
    solution: 'rustup update; a current cargo resolves the requirement.',
    symptom: 'cargo install ghciwatch aho-corasick version mismatch',
  },
  {
    id: 'pub2-cargo-select-nb-riscv',
    source: 'https://github.com/daniestevez/galileo-osnma/issues/22',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'Longan Nano firmware: cargo rejects nb 1.0 although it lists 1.0.0',
    literal:
      'error: failed to select a version for the requirement `nb = "^1.0"`\ncandidate versions found which didn\'t match: 1.0.0, 0.1.3, 0.1.2, ...\nlocation searched: crates.io index\nrequired by package `osnma-longan-nano v0.1.0 (/home/bob/galileo-osnma/osnma-longan-nano)`',
    body: 'The candidate exists but needs a newer cargo or a Cargo.lock that the checkout modified.',
    solution: 'Restore the checkout (git checkout Cargo.lock) and update the toolchain named in rust-toolchain.',
    symptom: 'cargo says nb 1.0.0 does not match requirement 1.0 for embedded build',
  },
  {
    id: 'pub2-cargo-c-failed-compile-msys',
    source: 'https://github.com/m-ab-s/media-autobuild_suite/issues/1605',
    ecosystem: 'rust',
    product: 'cargo-c',
    title: 'media-autobuild_suite cannot compile cargo-c 0.6.2',
    literal:
      'failed to compile `cargo-c v0.6.2`, intermediate artifacts can be found at `C:\\media-autobuild_suite-master\\msys64\\tmp\\cargo-installvmrZuG',
    body: 'An old suite checkout installs a cargo-c version that no longer builds with the current toolchain.',
    solution: 'Update the suite; it pins a cargo-c version that builds.',
    symptom: 'msys2 mingw build fails compiling cargo-c',
  },
];

/** rustc E0433/E0432: one template, told apart by the path it cannot resolve. */
export const RUST_RESOLVE_CASES: PublicCase[] = [
  {
    id: 'pub2-e0433-mirafetch-get-info',
    source: 'https://github.com/ArgentumCation/mirafetch/issues/14',
    ecosystem: 'rust',
    product: 'mirafetch',
    title: 'mirafetch on macOS: get_info module is only declared for other platforms',
    literal:
      'error[E0433]: failed to resolve: use of undeclared crate or module `get_info`\n   --> src/info/mod.rs:122:31',
    body: 'The get_info module is behind a cfg for Linux and Windows; on macOS nothing declares it.',
    solution: 'Add the macOS cfg branch (or build from the commit that adds it).',
    symptom: 'mirafetch macos build get_info undeclared module',
  },
  {
    id: 'pub2-e0433-iceoryx2-bb-elementary-derive',
    source: 'https://github.com/eclipse-iceoryx/iceoryx2/issues/715',
    ecosystem: 'rust',
    product: 'iceoryx2',
    title: 'ZeroCopySend derive refers to iceoryx2_bb_elementary, missing from the dependent crate',
    literal:
      'error[E0433]: failed to resolve: use of undeclared crate or module `iceoryx2_bb_elementary`\n  --> hftbacktest\\src\\live\\ipc\\iceoryx.rs:38:10',
    body: 'hftbacktest tracks the iceoryx2 main branch, whose derive macro expands to a crate the user never depends on.',
    solution: 'Depend on a released iceoryx2 version (0.5) instead of the git main branch.',
    symptom: 'zerocopysend derive macro iceoryx2 bb elementary unresolved',
  },
  {
    id: 'pub2-e0433-trussed-staging',
    source: 'https://github.com/trussed-dev/piv-authenticator/issues/12',
    ecosystem: 'rust',
    product: 'piv-authenticator',
    title: 'piv-authenticator does not build: trussed_staging not declared',
    literal: 'error[E0433]: failed to resolve: use of undeclared crate or module `trussed_staging`',
    body: 'The code uses trussed_staging behind a feature that the manifest did not enable.',
    solution: 'Update to the latest main, which enables the dependency.',
    symptom: 'piv authenticator trussed staging crate unresolved',
  },
  {
    id: 'pub2-e0433-clippy-fix-rxing-oned',
    source: 'https://github.com/rust-lang/rust-clippy/issues/10133',
    ecosystem: 'rust',
    product: 'clippy',
    title: 'cargo clippy --fix produces code that cannot resolve the oned module',
    literal:
      'error[E0433]: failed to resolve: use of undeclared crate or module `oned`\n  --> src/oned/multi_format_one_d_reader.rs:86:36',
    body: 'A clippy suggestion rewrote a path inside the oned module so it no longer resolves, and clippy asks for a bug report.',
    solution: 'Apply the fixes with --broken-code and repair the paths (crate::oned::...), or skip that lint.',
    symptom: 'clippy fix broke paths oned undeclared module rxing',
  },
  {
    id: 'pub2-e0433-autocxx-build-build-rs',
    source: 'https://github.com/google/autocxx/issues/1135',
    ecosystem: 'rust',
    product: 'autocxx',
    title: 'build.rs cannot find autocxx_build: missing build-dependency',
    literal: 'error[E0433]: failed to resolve: use of undeclared crate or module `autocxx_build`\n --> build.rs:3:32',
    body: 'autocxx-build is listed under [dependencies], but build scripts only see [build-dependencies].',
    solution: 'Move autocxx-build to [build-dependencies] in Cargo.toml.',
    symptom: 'build rs autocxx build crate not found build dependencies',
  },
  {
    id: 'pub2-e0433-wait-timeout-imp-wasi',
    source: 'https://github.com/alexcrichton/wait-timeout/issues/25',
    ecosystem: 'rust',
    product: 'wait-timeout',
    title: 'wait-timeout for wasm32-wasi: the platform module imp does not exist',
    literal:
      'error[E0433]: failed to resolve: use of undeclared crate or module `imp`\n  --> /home/runner/.cargo/registry/src/github.com-1ecc6299db9ec823/wait-timeout-0.2.0/src/lib.rs:66:9',
    body: 'The crate only has imp modules for Unix and Windows; compiling for wasm32-wasi leaves it undeclared.',
    solution: 'Build for a native target, or keep wait-timeout out of the wasm dependency graph.',
    symptom: 'wait-timeout wasm32 wasi imp module unresolved',
  },
  {
    id: 'pub2-e0433-old-format-gqlidl',
    source: 'https://github.com/gjtorikian/graphql-idl-parser/issues/6',
    ecosystem: 'rust',
    product: 'graphql-idl-parser',
    title: 'Old rustc: use of undeclared type or module gqlidl (crate renamed on import)',
    literal: 'error[E0433]: failed to resolve. Use of undeclared type or module `gqlidl`\n  --> src\\main.rs:11:23',
    body: 'The crate is declared as graphql_idl_parser; the example code calls it gqlidl.',
    solution: 'Use graphql_idl_parser:: paths, or extern crate graphql_idl_parser as gqlidl.',
    symptom: 'use of undeclared type or module gqlidl windows cargo build',
  },
  {
    id: 'pub2-e0432-unresolved-import-novel-crate',
    source: 'https://github.com/rust-lang/rust/issues/133137',
    ecosystem: 'rust',
    product: 'rustc',
    title: 'E0432 unresolved import of a crate not in Cargo.toml',
    literal: 'error[E0432]: unresolved import `some_novel_crate`\n --> src/main.rs:1:5',
    body: 'The crate is used but never added as a dependency.',
    solution: 'cargo add some_novel_crate (or declare the module if it is local).',
    symptom: 'rust unresolved import crate not added cargo add',
  },
  {
    id: 'pub2-e0433-cargo-raze-fail-ure',
    source: 'https://github.com/google/cargo-raze/issues/125',
    ecosystem: 'rust',
    product: 'cargo-raze',
    title: 'cargo-raze Bazel build of actix-http: renamed failure dependency fail_ure not found',
    literal:
      'error[E0433]: failed to resolve: use of undeclared type or module fail_ure\n--> external/raze__actix_http__1_0_1/src/error.rs:968:24',
    body: 'actix-http renames the failure crate to fail_ure in its manifest; old cargo-raze ignores renamed dependencies.',
    solution: 'Upgrade cargo-raze to a version that supports renamed dependencies.',
    symptom: 'bazel cargo raze actix http fail_ure renamed crate',
  },
];
