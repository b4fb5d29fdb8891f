/**
 * Raw tokens that tell otherwise equal errors apart, and that the
 * normalizer erases on purpose (a port is `<n>`, an address `<ip>`, a URL
 * `<url>`): connection errors to PostgreSQL, Redis and MongoDB read the same
 * once normalized, and so do registry timeouts to npm and Docker Hub.
 * One list for the ranking (database-search/ranking.ts) and the evaluation's
 * variant generator, which keeps these ports when it changes the others.
 */

/** Ports that name a service. */
export const WELL_KNOWN_PORTS = new Set([
  '21',
  '22',
  '25',
  '53',
  '80',
  '443',
  '1433',
  '1521',
  '2181',
  '2375',
  '2376',
  '3306',
  '5432',
  '5672',
  '6379',
  '6443',
  '8500',
  '9042',
  '9092',
  '9200',
  '9300',
  '11211',
  '15672',
  '27017',
]);

/** Hostnames of package registries, container registries and code hosts, lower-case. */
export const WELL_KNOWN_HOSTS = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'proxy.golang.org',
  'sum.golang.org',
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'plugins.gradle.org',
  'rubygems.org',
  'packagist.org',
  'api.nuget.org',
  'registry-1.docker.io',
  'auth.docker.io',
  'production.cloudflare.docker.com',
  'ghcr.io',
  'quay.io',
  'gcr.io',
  'registry.k8s.io',
  'k8s.gcr.io',
  'mcr.microsoft.com',
  'public.ecr.aws',
  'github.com',
  'api.github.com',
  'objects.githubusercontent.com',
  'raw.githubusercontent.com',
  'gitlab.com',
  'bitbucket.org',
  'deb.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
  'dl-cdn.alpinelinux.org',
  'mirror.centos.org',
  'vault.centos.org',
  'download.docker.com',
  'registry.terraform.io',
  'releases.hashicorp.com',
  'amazonaws.com',
  'googleapis.com',
  'azurecr.io',
];
