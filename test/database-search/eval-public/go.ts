/**
 * Public error literals from Go tooling and Go programs, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from '../eval-cases-public.ts';

export const GO_CASES: PublicCase[] = [
  {
    id: 'pub2-go119-invalid-go-version-stringer', source: 'https://github.com/golang/go/issues/71363', ecosystem: 'go', product: 'go',
    title: 'go install stringer@latest on Go 1.19: go.mod has a three-part go version',
    literal: "go: downloading golang.org/x/tools v0.29.0\ngo: golang.org/x/tools/cmd/stringer@latest (in golang.org/x/tools@v0.29.0): go.mod:3: invalid go version '1.22.0': must match format 1.23",
    body: 'Go before 1.21 cannot parse go directives like 1.22.0, which newer x/tools releases use.',
    solution: 'Update the Go toolchain in CI (1.21+), or pin an older tools version.',
    symptom: 'ci go install stringer latest invalid go version must match format',
  },
  {
    id: 'pub2-go118-errors-parsing-go-mod', source: 'https://github.com/pinpox/pgp2ssh/issues/4', ecosystem: 'go', product: 'go',
    title: 'go run with Go 1.18: errors parsing go.mod (invalid go version)',
    literal: "go: errors parsing go.mod:\n/pgp2ssh/go.mod:3: invalid go version '1.21.8': must match format 1.23",
    body: 'The module declares go 1.21.8; Go 1.18 only understands major.minor directives.',
    solution: 'Install Go 1.21 or newer.',
    symptom: 'go run errors parsing go mod old go version',
  },
  {
    id: 'pub2-go111-errors-as-module-requires-113', source: 'https://github.com/equinix/metal-cli/issues/79', ecosystem: 'go', product: 'go',
    title: 'Building metal-cli with Go 1.11: errors.As undefined, module requires Go 1.13',
    literal: 'cmd/root.go:90:49: undefined: "github.com/pkg/errors".As\nnote: module requires Go 1.13',
    body: 'The code uses APIs added in Go 1.13 and the system Go is 1.11.',
    solution: 'Install a current Go release (from go.dev/dl or backports) and rebuild.',
    symptom: 'build fails undefined errors as note module requires go 1.13',
  },
  {
    id: 'pub2-go117-undefined-utf8-appendrune', source: 'https://github.com/golang/go/issues/51778', ecosystem: 'go', product: 'go',
    title: 'Go 1.17 building a go 1.18 module: utf8.AppendRune undefined',
    literal: './new-symbol.go:6:6: undefined: utf8.AppendRune\nnote: module requires Go 1.18',
    body: 'The module uses a standard library function added in Go 1.18.',
    solution: 'Build with Go 1.18 or newer.',
    symptom: 'undefined utf8 appendrune older go',
  },
  {
    id: 'pub2-go117-netip-not-in-goroot', source: 'https://github.com/golang/go/issues/51778', ecosystem: 'go', product: 'go',
    title: 'Go 1.17 building code that imports net/netip: package not in GOROOT',
    literal: 'new-pkg.go:3:8: package net/netip is not in GOROOT (/home/bradfitz/sdk/go1.17/src/net/netip)',
    body: 'net/netip was added in Go 1.18; older toolchains report a missing standard package without the module version hint.',
    solution: 'Build with Go 1.18 or newer (the go directive in go.mod says which).',
    symptom: 'package net netip is not in goroot',
  },
];
