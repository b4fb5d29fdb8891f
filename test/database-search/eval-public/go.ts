/**
 * Public error literals from Go tooling and Go programs, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

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

/** Go index-out-of-range panics, told apart by what prints them and the index shown. */
export const GO_PANIC_CASES: PublicCase[] = [
  {
    id: 'pub2-go-panic-index-gobot-main', source: 'https://github.com/SaturnsVoid/GoBot2/issues/6', ecosystem: 'go', product: 'gobot2',
    title: 'GoBot2 server panics at start: missing command-line argument',
    literal: 'panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n        Server.go:870 +0x3a5a',
    body: 'main reads os.Args[1] without checking how many arguments were given.',
    solution: 'Pass the required arguments (and check len(os.Args) in the code).',
    symptom: 'gobot server index out of range without argument',
  },
  {
    id: 'pub2-go-panic-index-1-length-1-cntb', source: 'https://github.com/contabo/cntb/pull/3', ecosystem: 'go', product: 'cntb',
    title: 'cntb roles edit panics: index [1] with length 1',
    literal: 'panic: runtime error: index out of range [1] with length 1\n\ngoroutine 1 [running]:\ncontabo.com/cli/cntb/cmd/roles.glob..func6(0xfa8100, {0xc0001ef4f0, 0x1, 0x1})',
    body: 'The edit command splits an argument and reads the second part, which is missing.',
    solution: 'Validate the argument format before indexing (fixed in the PR).',
    symptom: 'contabo cli roles edit panic index 1 length 1',
  },
  {
    id: 'pub2-go-panic-index-goroutine-inspect-dedupe', source: 'https://github.com/linuxerwang/goroutine-inspect/issues/1', ecosystem: 'go', product: 'goroutine-inspect',
    title: 'goroutine-inspect panics on an unknown function name (dedupe)',
    literal: '>> original.dedupe()\npanic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.expr(0xc42021e000, 0x11, 0x11, 0x0)',
    body: 'The function is called dedup(); an unknown name indexes an empty match.',
    solution: 'Use dedup() (newer versions print a message for unknown functions).',
    symptom: 'goroutine inspect dedupe panic index out of range',
  },
  {
    id: 'pub2-go-http-panic-serving-index', source: 'https://github.com/weaveworks/scope/issues/422', ecosystem: 'go', product: 'weave-scope',
    title: 'Weave Scope: http panic serving a request (index out of range in render mapping)',
    literal: 'http: panic serving 212.121.131.210:61894: runtime error: index out of range',
    body: 'A handler indexes into a split address without checking its parts; net/http recovers and logs the panic.',
    solution: 'Guard the index in render/mapping.go (fixed upstream).',
    symptom: 'weave scope http panic serving index out of range',
  },
  {
    id: 'pub2-go-panic-index-minus-1-yaegi', source: 'https://github.com/traefik/yaegi/issues/1440', ecosystem: 'go', product: 'yaegi',
    title: 'yaegi interpreter panics with index out of range [-1]',
    literal: 'panic: runtime error: index out of range [-1]',
    body: 'An interpreter bug on a construct in the interpreted program pops from an empty stack.',
    solution: 'Reduce the program to the construct that triggers it and report it; run it compiled meanwhile.',
    symptom: 'yaegi index out of range minus one',
  },
  {
    id: 'pub2-go-panic-index-with-length-gorse', source: 'https://github.com/gorse-io/gorse/issues/747', ecosystem: 'go', product: 'gorse',
    title: 'gorse-in-one panics after a while: index beyond length of the item index',
    literal: 'panic: runtime error: index out of range [112146] with length 111862',
    body: 'New items arrive while a model built on the older item count is still serving.',
    solution: 'Upgrade gorse (bounds check added) or restart after the next model fit.',
    symptom: 'gorse recommender panic index out of range with length',
  },
  {
    id: 'pub2-go-panic-index-init-kvexpress', source: 'https://github.com/DataDog/kvexpress/issues/73', ecosystem: 'go', product: 'kvexpress',
    title: 'kvexpress without arguments panics in an init function',
    literal: 'panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n_/home/darron/kvexpress/commands.init.8()',
    body: 'An init() reads os.Args[1] before cobra parses the command line.',
    solution: 'Move the argument handling out of init (fixed upstream).',
    symptom: 'kvexpress run alone panic init',
  },
  {
    id: 'pub2-go-panic-index-start-readcommand', source: 'https://github.com/christophberger/start/issues/7', ecosystem: 'go', product: 'start',
    title: 'start: readCommand panics for a command with no subcommand given',
    literal: '> ./starttest do\npanic: runtime error: index out of range\n\ngoroutine 1 [running]:\ngithub.com/christophberger/start.readCommand(0xc820012ac0, 0x0, 0x0, 0xc820053df0, 0x0, 0x0)',
    body: 'The parser indexes the remaining arguments without checking that any are left.',
    solution: 'Fixed upstream (commit a5bc477).',
    symptom: 'start cli library readcommand panic',
  },
];

/** The Go module proxy unreachable: the module and the address differ, the CDN host does not. */
export const GO_PROXY_TIMEOUT_CASES: PublicCase[] = [
  {
    id: 'pub2-goproxy-timeout-title-173', source: 'https://github.com/golang/go/issues/34548', ecosystem: 'go', product: 'go',
    title: 'proxy.golang.org dial timeout during a brief proxy outage',
    literal: 'proxy.golang.org: dial tcp 173.194.197.141:443: i/o timeout',
    body: 'The module proxy address did not answer for a few minutes.',
    solution: 'Retry later; GOPROXY=https://proxy.golang.org,direct falls back to direct fetches.',
    symptom: 'go module proxy dial tcp timeout outage',
  },
  {
    id: 'pub2-goproxy-timeout-gogo-protobuf-mod', source: 'https://github.com/withlin/canal-go/issues/57', ecosystem: 'go', product: 'go',
    title: 'go build in mainland China: gogo/protobuf .mod download times out at proxy.golang.org',
    literal: 'go: github.com/gogo/protobuf@v1.3.1: Get https://proxy.golang.org/github.com/gogo/protobuf/@v/v1.3.1.mod: dial tcp 172.217.160.81:443: i/o timeout',
    body: 'proxy.golang.org is not reachable from the network; proxychains does not help because Go resolves and dials itself.',
    solution: 'go env -w GOPROXY=https://goproxy.io,direct (or goproxy.cn).',
    symptom: 'go build gogo protobuf proxy golang timeout china',
  },
  {
    id: 'pub2-goproxy-timeout-go-sql-driver-quoted', source: 'https://github.com/ac0d3r/MySQLMonitor/issues/3', ecosystem: 'go', product: 'go',
    title: 'go run MySQLMonitor: go-sql-driver/mysql .mod times out (quoted URL, Go 1.14+)',
    literal: 'go: github.com/go-sql-driver/mysql@v1.6.0: Get "https://proxy.golang.org/github.com/go-sql-driver/mysql/@v/v1.6.0.mod": dial tcp 172.217.163.49:443: i/o timeout',
    body: 'The default module proxy is blocked on this network.',
    solution: 'Set GOPROXY=https://goproxy.io (or another reachable mirror).',
    symptom: 'go run mysql driver module download timeout proxy',
  },
  {
    id: 'pub2-goproxy-timeout-clash-escaped-path', source: 'https://github.com/Sansui233/proxypool/issues/17', ecosystem: 'go', product: 'go',
    title: 'proxypool: Dreamacro/clash module (escaped !dreamacro path) times out',
    literal: 'go: github.com/Dreamacro/clash@v1.3.0: Get "https://proxy.golang.org/github.com/%21dreamacro/clash/@v/v1.3.0.mod": dial tcp 172.217.160.113:443: i/o timeout',
    body: 'The proxy is unreachable; the upper-case module path is escaped as %21 in the URL.',
    solution: 'Change GOPROXY to https://goproxy.cn, or use the prebuilt release.',
    symptom: 'proxypool clash module download i/o timeout goproxy',
  },
  {
    id: 'pub2-goproxy-timeout-go-ethereum', source: 'https://github.com/jmozah/exportSwarmKey/issues/3', ecosystem: 'go', product: 'go',
    title: 'exportSwarmKey: go-ethereum module download times out',
    literal: 'go: github.com/ethereum/go-ethereum@v1.9.25: Get "https://proxy.golang.org/github.com/ethereum/go-ethereum/@v/v1.9.25.mod": dial tcp 142.250.206.209:443: i/o timeout',
    body: 'go run fetches go-ethereum through the default proxy, which the network blocks.',
    solution: 'Use a reachable GOPROXY mirror or a network where proxy.golang.org works.',
    symptom: 'go run bee swarm key go-ethereum module timeout',
  },
  {
    id: 'pub2-goproxy-timeout-gorm-zip', source: 'https://github.com/go-gorm/gorm/issues/6994', ecosystem: 'go', product: 'gorm',
    title: 'gorm module zip download times out although GOPROXY was set',
    literal: 'main.go:5:2: gorm.io/gorm@v1.25.9: Get "https://proxy.golang.org/gorm.io/gorm/@v/v1.25.9.zip": dial tcp 172.217.163.49:443: i/o timeout',
    body: 'The GOPROXY setting was made in another shell (or go env -w not used), so go still uses proxy.golang.org.',
    solution: 'go env -w GOPROXY=https://goproxy.cn,direct and check go env GOPROXY.',
    symptom: 'gorm zip download proxy golang timeout goproxy setting ignored',
  },
  {
    id: 'pub2-goproxy-dns-lookup-read-udp', source: 'https://github.com/projectdiscovery/httpx/issues/653', ecosystem: 'go', product: 'go',
    title: 'go install httpx: DNS lookup of proxy.golang.org times out',
    literal: 'dial tcp: lookup proxy.golang.org on xxx.xxx.xx.x:xx: read udp xxx.xxx.xx.xxx:39967->xxx.xx.xx.xx.:xx: i/o timeout',
    body: 'The resolver in /etc/resolv.conf does not answer, so the proxy name cannot be resolved.',
    solution: 'Fix DNS (another nameserver) or set a GOPROXY reachable by the resolver.',
    symptom: 'go install lookup proxy golang read udp timeout dns',
  },
];
