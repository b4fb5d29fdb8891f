/**
 * Public error literals from git, GitHub and git hosting clients, each with
 * the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const GIT_CASES: PublicCase[] = [
  {
    id: 'pub2-git-local-issuer-synology',
    source: 'https://github.com/SynoCommunity/spksrc/issues/3843',
    ecosystem: 'git',
    product: 'git',
    title: 'Git on a Synology NAS cannot verify GitHub: unable to get local issuer certificate',
    literal:
      "fatal: unable to access 'https://github.com/SickChill/SickChill.git/': SSL certificate problem: unable to get local issuer certificate",
    body: 'After a package update git no longer finds a CA bundle, so every clone and pull over HTTPS fails.',
    solution: 'git config --system http.sslCAInfo /etc/ssl/certs/ca-certificates.crt',
    symptom: 'git pull on nas ssl local issuer certificate after update',
  },
  {
    id: 'pub2-git-old-ssl-while-accessing-info-refs',
    source: 'https://github.com/vastgroup/vast-tools/issues/11',
    ecosystem: 'git',
    product: 'git',
    title: 'Old git clone over HTTPS fails certificate check while accessing info/refs',
    literal:
      'error: SSL certificate problem: unable to get local issuer certificate while accessing https://github.com/vastgroup/vast-tools.git/info/refs?service=git-upload-pack\nfatal: HTTP request failed',
    body: 'An old git with an outdated CA bundle cannot verify GitHub over HTTPS.',
    solution: 'Clone over SSH (git@github.com:owner/repo.git) or update git and its CA certificates.',
    symptom: 'git clone http request failed certificate info refs git-upload-pack',
  },
  {
    id: 'pub2-git-could-not-resolve-github',
    source: 'https://github.com/ultrasecurity/Storm-Breaker/issues/353',
    ecosystem: 'git',
    product: 'git',
    title: 'git clone cannot resolve github.com',
    literal:
      "fatal: unable to access 'https://github.com/ultrasecurity/Storm-Breaker.git/': Could not resolve host: github.com",
    body: 'The machine has no working DNS (or no network) when cloning.',
    solution: 'Fix DNS or the network connection (check /etc/resolv.conf, proxy settings), then clone again.',
    symptom: 'git clone could not resolve host github dns',
  },
  {
    id: 'pub2-git-ssl-ca-cert-path-docker',
    source: 'https://github.com/zardus/ctf-tools/pull/156',
    ecosystem: 'git',
    product: 'git',
    title: 'git in a Docker image: problem with the SSL CA cert',
    literal:
      "fatal: unable to access 'https://github.com/Author/Repo.git': Problem with the SSL CA cert (path? access rights?)",
    body: 'The image has git but not the ca-certificates package, so the CA file path git was built with is missing.',
    solution: 'Install ca-certificates in the Dockerfile before cloning.',
    symptom: 'git clone in docker image ca cert path access rights',
  },
  {
    id: 'pub2-git-schannel-certgetnamestring-gitee',
    source: 'https://github.com/desktop/desktop/issues/4888',
    ecosystem: 'git',
    product: 'github-desktop',
    title: 'GitHub Desktop fetch from Gitee: schannel hostname does not match certificate',
    literal:
      "fatal: unable to access 'https://gitee.com/goio/client.git/': schannel: CertGetNameString() failed to match connection hostname (gitee.com) against server certificate names",
    body: 'A system-wide sslCAInfo setting in C:\\ProgramData\\Git\\config interferes with the schannel backend.',
    solution: 'Remove sslCAInfo from C:\\ProgramData\\Git\\config (or switch http.sslBackend to openssl).',
    symptom: 'github desktop schannel failed to match hostname gitee',
  },
  {
    id: 'pub2-git-cert-expired-libimobiledevice',
    source: 'https://github.com/libimobiledevice/libimobiledevice/issues/768',
    ecosystem: 'git',
    product: 'git',
    title: 'Cloning from git.libimobiledevice.org: server certificate has expired',
    literal:
      "fatal: unable to access 'https://git.libimobiledevice.org/libimobiledevice.git/': SSL certificate problem: certificate has expired",
    body: 'The project git server certificate expired before the renewal script ran.',
    solution: 'Wait for the server to renew the certificate; do not turn off http.sslVerify permanently.',
    symptom: 'git clone libimobiledevice server certificate expired',
  },
  {
    id: 'pub2-git-ssl3-wrong-version-number',
    source: 'https://github.com/noaa-iea/r3-train/issues/68',
    ecosystem: 'git',
    product: 'git',
    title: 'git clone on a corporate Windows machine: SSL wrong version number',
    literal:
      "fatal: unable to access 'https://github.com/JuliaCoates/r3-exercises.git/': error:1408F10B:SSL routines:ssl3_get_record:wrong version number",
    body: 'A proxy setting sends TLS to a plain HTTP proxy port (or the network intercepts traffic), so the handshake reads a non-TLS answer.',
    solution: 'Fix http.proxy/https.proxy (http:// scheme for the proxy), or use the schannel backend on Windows.',
    symptom: 'git clone ssl3_get_record wrong version number proxy',
  },
  {
    id: 'pub2-curl-35-unknown-ssl-protocol',
    source: 'https://github.com/git-for-windows/git/issues/363',
    ecosystem: 'git',
    product: 'curl',
    title: 'curl from Git for Windows: unknown SSL protocol error to raw.githubusercontent.com',
    literal: 'curl: (35) Unknown SSL protocol error in connection to raw.githubusercontent.com:443',
    body: 'The TLS handshake is cut off by the network (firewall or proxy) before the server answers.',
    solution: 'Go through the configured proxy or another network; check that nothing intercepts port 443.',
    symptom: 'curl 35 unknown ssl protocol error githubusercontent',
  },
  {
    id: 'pub2-git-could-not-lock-system-config',
    source: 'https://github.com/SynoCommunity/spksrc/issues/3843',
    ecosystem: 'git',
    product: 'git',
    title: 'git config --system fails on Windows: cannot lock the system gitconfig',
    literal: 'error: could not lock config file C:/Program Files/Git/etc/gitconfig: Permission denied',
    body: 'The system-level gitconfig lives under Program Files, which an unelevated shell may not write.',
    solution: 'Run the shell as administrator, or set the option with --global instead of --system.',
    symptom: 'git config system permission denied program files windows',
  },
];

/** GitHub refusing passwords over HTTPS, in the wordings of 2021 and later. */
export const GITHUB_PASSWORD_CASES: PublicCase[] = [
  {
    id: 'pub2-github-password-removed-docs-link',
    source: 'https://github.com/theshteves/commit-bot/issues/16',
    ecosystem: 'git',
    product: 'github',
    title: 'git push over HTTPS with a password: authentication failed (docs link wording)',
    literal:
      "remote: Support for password authentication was removed on August 13, 2021.\nremote: Please see https://docs.github.com/en/get-started/getting-started-with-git/about-remote-repositories#cloning-with-https-urls for information on currently recommended modes of authentication.\nfatal: Authentication failed for 'https://github.com/KeroAutishima/commit-bot.git/'",
    body: 'GitHub no longer accepts account passwords for git over HTTPS.',
    solution: 'Use a personal access token as the password (or a credential manager, or SSH).',
    symptom: 'git push github password no longer accepted authentication failed',
  },
  {
    id: 'pub2-github-password-removed-403-2021',
    source: 'https://github.com/seankross/the-unix-workbench/issues/1241',
    ecosystem: 'git',
    product: 'github',
    title: 'First push from the Unix Workbench chapter: password removed, 403',
    literal:
      "remote: Support for password authentication was removed on August 13, 2021. Please use a personal access token instead.\nremote: Please see https://github.blog/2020-12-15-token-authentication-requirements-for-git-operations/ for more information.\nfatal: unable to access 'https://github.com/***/my-first-repo.git/': The requested URL returned error: 403",
    body: 'The 2021 wording answers 403 for a password.',
    solution: 'Create a personal access token and enter it instead of the password.',
    symptom: 'github push 403 please use a personal access token instead',
  },
  {
    id: 'pub2-github-password-prompt-workshop',
    source: 'https://github.com/hashicorp/field-workshops-terraform/issues/275',
    ecosystem: 'git',
    product: 'github',
    title: 'Terraform workshop git push asks for username and password, then refuses',
    literal:
      "root@workstation:~/hashicat-aws# git push origin master\nUsername for 'https://github.com': rrbirk001\nremote: Support for password authentication was removed on August 13, 2021. Please use a personal access token instead.",
    body: 'The workshop instructions predate token-only authentication.',
    solution: 'Generate a personal access token and use it at the password prompt.',
    symptom: 'workshop git push username password github removed',
  },
  {
    id: 'pub2-xpipe-unable-to-fetch-remote',
    source: 'https://github.com/xpipe-io/xpipe/issues/389',
    ecosystem: 'git',
    product: 'xpipe',
    title: 'XPipe git sync on macOS: unable to fetch from the remote repository',
    literal:
      "fatal: Authentication failed for 'https://github.com/arty01238/xpipe-sync.git/'\nUnable to fetch from remote repository https://github.com/arty01238/xpipe-sync.git",
    body: 'The sync feature prompts for a password, which GitHub rejects.',
    solution: 'Enter a personal access token (github.com/settings/tokens) at the password prompt.',
    symptom: 'xpipe sync unable to fetch from remote repository github',
  },
  {
    id: 'pub2-semantic-release-ls-remote-128',
    source: 'https://github.com/semantic-release/semantic-release/issues/3550',
    ecosystem: 'node',
    product: 'semantic-release',
    title: 'semantic-release sporadically fails git ls-remote with exit code 128',
    literal:
      'shortMessage: "Command failed with exit code 128: git ls-remote --heads \'https://github.com/***/playground\'",',
    body: 'In a container job the token is sometimes not passed to git, which then falls back to password authentication.',
    solution: 'Make sure GITHUB_TOKEN (or GH_TOKEN) reaches the job and the checkout does not override credentials.',
    symptom: 'semantic release git ls-remote exit code 128 github actions',
  },
];
