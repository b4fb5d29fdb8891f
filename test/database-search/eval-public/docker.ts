/**
 * Public error literals from Docker, Compose and container tools, each with
 * the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const DOCKER_CASES: PublicCase[] = [
  {
    id: 'pub2-docker-port-allocated-oracle-xe',
    source: 'https://github.com/docker/for-mac/issues/1114',
    ecosystem: 'docker',
    product: 'docker-for-mac',
    title: 'Oracle XE container will not start: host port already allocated',
    literal:
      'docker: Error response from daemon: driver failed programming external connectivity on endpoint serene_lalande (08bb0bd9684c0f92db7b736986bf894d3a57a714324405823496d13e175e7491): Error starting userland proxy: Bind for 0.0.0.0:49161 failed: port is already allocated.',
    body: 'A previous container (or its leftover docker-proxy) still holds the published host port.',
    solution:
      'Remove the container publishing the port (docker ps -a), or restart Docker to clear a stale proxy; or publish another host port.',
    symptom: 'docker run userland proxy bind failed host port already allocated',
  },
  {
    id: 'pub2-docker-port-allocated-2375-shipyard',
    source: 'https://github.com/ehazlett/shipyard/issues/821',
    ecosystem: 'docker',
    product: 'shipyard',
    title: 'Shipyard deploy: proxy cannot bind the Docker API port 2375',
    literal:
      'docker: Error response from daemon: driver failed programming external connectivity on endpoint shipyard-proxy (b6f760b12220a78b27e24063d8eb341e78a311a8962119ec2016436d3e0c75f5): Bind for 0.0.0.0:2375 failed: port is already allocated.',
    body: 'Docker for Mac already exposes its API on 2375, so the shipyard-proxy container cannot publish it.',
    solution: 'Publish the shipyard proxy on another host port (PROXY_PORT) in the deploy script.',
    symptom: 'shipyard deploy fails docker api port 2375 in use',
  },
  {
    id: 'pub2-compose-port-allocated-6060',
    source: 'https://github.com/conduitxyz/node/issues/8',
    ecosystem: 'docker',
    product: 'docker-compose',
    title: 'Conduit node compose up: port 6060 taken by another application',
    literal:
      'Error response from daemon: driver failed programming external connectivity on endpoint node-node-q (....): Bind for 0.0.0.0:6060 failed: port is already allocated',
    body: 'Another application on the host listens on 6060, which the compose file publishes for metrics.',
    solution: 'Change the published host port in docker-compose.yml (e.g. "6061:6060").',
    symptom: 'docker compose up conduit node metrics port in use by other app',
  },
  {
    id: 'pub2-vscode-docker-port-allocated-5436',
    source: 'https://github.com/microsoft/vscode-docker/issues/1309',
    ecosystem: 'docker',
    product: 'vscode-docker',
    title: 'VS Code Docker extension cannot start a database container: port allocated',
    literal:
      'Error Message: (HTTP code 500) server error - driver failed programming external connectivity on endpoint db_bancoDeDados (0d28a52286a8d0277723001a45a9abad14a193f196118234948c6d1ead9b5a57): Bind for 0.0.0.0:5436 failed: port is already allocated',
    body: 'Starting the container from the extension fails because another container already publishes the same host port.',
    solution: 'Stop the other container or assign a different host port.',
    symptom: 'vscode docker extension start container http 500 port already allocated',
  },
];

export const DOCKER_DAEMON_CASES: PublicCase[] = [
  {
    id: 'pub2-docker-daemon-not-running-sock',
    source: 'https://github.com/moby/moby/issues/32658',
    ecosystem: 'docker',
    product: 'docker',
    title: 'docker info: cannot connect to the Docker daemon socket',
    literal: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
    body: 'dockerd is not running (it failed at start), so the CLI finds no socket to talk to.',
    solution:
      'systemctl status docker and journalctl -u docker to see why dockerd fails; fix it and systemctl start docker.',
    symptom: 'docker cli says daemon not running on docker sock',
  },
  {
    id: 'pub2-dockerd-start-limit-status-125',
    source: 'https://github.com/pipiliang/bit-by-bit/issues/29',
    ecosystem: 'docker',
    product: 'dockerd',
    title: 'docker.service exits with status 125 after adding a storage driver flag',
    literal:
      'Dec 28 16:36:20  systemd[1]: docker.service: Main process exited, code=exited, status=125/n/a\nDec 28 16:36:20  systemd[1]: Failed to start Docker Application Container Engine.',
    body: 'An ExecStart override uses the removed "docker daemon" subcommand and a flag also set in daemon.json, so dockerd refuses to start.',
    solution:
      'Use dockerd in ExecStart and set each option once (daemon.json or flags), then daemon-reload and restart.',
    symptom: 'docker service fails to start status 125 after editing unit',
  },
  {
    id: 'pub2-docker-old-dial-unix-no-such-file',
    source: 'https://github.com/ONLYOFFICE/Docker-CommunityServer/issues/3',
    ecosystem: 'docker',
    product: 'docker',
    title: 'Old Docker client: dial unix docker.sock no such file',
    literal:
      'Post http:///var/run/docker.sock/v1.20/containers/create: dial unix /var/run/docker.sock: no such file or directory.\n* Are you trying to connect to a TLS-enabled daemon without TLS?\n* Is your docker daemon up and running?',
    body: 'The Docker service is not started on the Ubuntu 14.04 host, so the socket file does not exist.',
    solution: 'sudo service docker start (systemctl start docker on newer systems).',
    symptom: 'docker run dial unix docker sock no such file tls enabled daemon',
  },
  {
    id: 'pub2-fig-couldnt-connect-docker-host',
    source: 'https://github.com/docker/compose/issues/510',
    ecosystem: 'docker',
    product: 'docker-compose',
    title: "fig up: couldn't connect to the Docker daemon (permissions)",
    literal:
      "Couldn't connect to Docker daemon at http+unix://var/run/docker.sock - is it running?\n\nIf it's at a non-standard location, specify the URL with the DOCKER_HOST environment variable.",
    body: 'The daemon runs, but the user may not open its socket.',
    solution: 'Add the user to the docker group (then log in again), or run with sudo.',
    symptom: 'compose up couldnt connect docker daemon docker host variable',
  },
  {
    id: 'pub2-systemctl-docker-job-failed',
    source: 'https://github.com/moby/moby/issues/32658',
    ecosystem: 'docker',
    product: 'dockerd',
    title: 'systemctl start docker: job failed, control process exited',
    literal: 'Job for docker.service failed because the control process exited with error code',
    body: 'dockerd exits at start (bad daemon.json, storage driver or leftover state), so systemd reports the job failed.',
    solution: 'Read journalctl -xeu docker.service for the dockerd error and fix the configuration it names.',
    symptom: 'start docker service job failed control process exited',
  },
];

/** docker build COPY of a path missing from the context, told apart by the path. */
export const DOCKER_COPY_CASES: PublicCase[] = [
  {
    id: 'pub2-copy-failed-files-to-copy',
    source: 'https://github.com/wpdiaries/wordpress-xdebug/issues/2',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'wordpress-xdebug image: files-to-copy/ missing from the build context',
    literal:
      'COPY failed: file not found in build context or excluded by .dockerignore: stat files-to-copy/: file does not exist',
    body: 'The directory the Dockerfile copies was not created next to it before the build.',
    solution: 'Create files-to-copy/ in the context as the README describes (or remove the COPY).',
    symptom: 'docker build wordpress xdebug files to copy missing',
  },
  {
    id: 'pub2-copy-failed-ghidra-scripts',
    source: 'https://github.com/KeenSecurityLab/BinAbsInspector/issues/63',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'BinAbsInspector docker build: ghidra_scripts not in context',
    literal:
      'COPY failed: file not found in build context or excluded by .dockerignore: stat ghidra_scripts: file does not exist',
    body: 'The build runs from a directory that does not contain ghidra_scripts (or before building the jar that creates it).',
    solution: 'Run docker build from the repository root after the Gradle build.',
    symptom: 'binabsinspector docker build ghidra scripts missing',
  },
  {
    id: 'pub2-copy-failed-kubespace-binary',
    source: 'https://github.com/kubespace/kubespace/issues/1',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'Deploying kubespace: the Dockerfile copies a binary that was never built',
    literal:
      'COPY failed: file not found in build context or excluded by .dockerignore: stat kubespace: file does not exist\n! Build failed\nerror: Build failed',
    body: 'The Dockerfile expects a prebuilt kubespace binary in the context; the platform builds from source without compiling it.',
    solution: 'Build the Go binary first (or use a multi-stage Dockerfile that compiles it).',
    symptom: 'kubespace deploy build failed binary missing in context',
  },
  {
    id: 'pub2-copy-failed-run-sh-step',
    source: 'https://github.com/jitsi/moderated-meetings/issues/14',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'moderated-meetings image: build/run.sh missing after a cleanup commit',
    literal:
      'Step 15/16 : COPY build/run.sh /\nCOPY failed: file not found in build context or excluded by .dockerignore: stat build/run.sh: file does not exist',
    body: 'A commit removed build/run.sh from the repository while the Dockerfile still copies it.',
    solution: 'Restore the file (fixed upstream).',
    symptom: 'jitsi moderated meetings docker build run sh missing',
  },
  {
    id: 'pub2-copy-httpd-foreground',
    source: 'https://github.com/docker-library/httpd/issues/239',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'Building the httpd Dockerfile alone: httpd-foreground not in context',
    literal: 'file not found in build context or excluded by .dockerignore: stat httpd-foreground: file does not exist',
    body: 'Only the Dockerfile was downloaded; the script it copies lives next to it in the repository.',
    solution: 'git clone the repository and build in the 2.4 directory (docker build httpd/2.4).',
    symptom: 'httpd official image dockerfile httpd-foreground missing',
  },
  {
    id: 'pub2-copy-failed-docs-compose',
    source: 'https://github.com/Threekiii/Vulnerability-Wiki/issues/31',
    ecosystem: 'docker',
    product: 'docker-compose',
    title: 'docker-compose up: docs folder missing (release archive not downloaded)',
    literal:
      'COPY failed: file not found in build context or excluded by .dockerignore: stat docs: file does not exist, Code: 1',
    body: 'The Dockerfile copies docs/, which comes from a separate release download.',
    solution: 'Download and unpack the docs release into the project before docker-compose up.',
    symptom: 'vulnerability wiki docker compose docs folder missing',
  },
  {
    id: 'pub2-copy-telegram-cmakelists',
    source: 'https://github.com/bots-house/docker-telegram-bot-api/issues/20',
    ecosystem: 'docker',
    product: 'docker-build',
    title: 'telegram-bot-api image: upstream submodule not checked out',
    literal:
      'file not found in build context or excluded by .dockerignore: stat upstream/CMakeLists.txt: file does not exist',
    body: 'upstream is a git submodule; a clone without --recursive leaves it empty.',
    solution: 'git submodule update --init --recursive before building.',
    symptom: 'telegram bot api docker build upstream cmakelists missing submodule',
  },
];

/** Exit code 137 (SIGKILL, usually the OOM killer) as different tools report it. */
export const EXIT_137_CASES: PublicCase[] = [
  {
    id: 'pub2-docker-inspect-exitcode-137-oomkilled-false',
    source: 'https://github.com/coderaiser/cloudcmd/issues/440',
    ecosystem: 'docker',
    product: 'cloudcmd',
    title: 'cloudcmd container dies after hours: ExitCode 137 with OOMKilled false',
    literal: 'ExitCode:137,\nFinishedAt:"2025-05-30T21:45:11.910895562Z",\nOOMKilled:false,',
    body: 'The host (not the container limit) ran out of memory, so the kernel OOM killer ended the process; Docker only sets OOMKilled for cgroup limits.',
    solution: 'Check dmesg for the OOM kill, add RAM or swap, or set a memory limit that the app respects.',
    symptom: 'docker container exit code 137 but oomkilled false',
  },
  {
    id: 'pub2-compose-exec-supervisorctl-137-hint',
    source: 'https://github.com/mozilla/addons/issues/5259',
    ecosystem: 'docker',
    product: 'docker-compose',
    title: 'docker-compose exec supervisorctl restart: exited with code 137',
    literal:
      '+ docker-compose exec web supervisorctl restart all\nExited with code 137\n\nHint: Exit code 137 typyically means the process is killed because it was running out of memory',
    body: 'The CI hint blames memory, but the process was killed by signal handling during the restart in the Debian-based image.',
    solution: 'Make the entrypoint forward signals (exec, tini) so restarts do not SIGKILL the process group.',
    symptom: 'ci docker compose exec restart exited with code 137 hint memory',
  },
  {
    id: 'pub2-k8s-exec-error-executing-137',
    source: 'https://github.com/kubernetes/kubernetes/issues/77806',
    ecosystem: 'kubernetes',
    product: 'kubernetes',
    title: 'kubectl exec into a MySQL pod: command terminated with 137',
    literal: 'command terminated with non-zero exit code: Error executing in Docker Container: 137',
    body: 'The exec process (or the container) is killed; the liveness probe restarts the container while the command runs.',
    solution: 'Check kubectl describe pod for probe failures and OOM events; fix the probe or resources.',
    symptom: 'kubectl exec mysql pod terminated exit code 137',
  },
  {
    id: 'pub2-gitlab-runner-job-failed-137',
    source: 'https://github.com/podman-container-tools/podman/issues/10825',
    ecosystem: 'ci',
    product: 'gitlab-runner',
    title: 'GitLab runner with podman: jobs fail with exit code 137 without an OOM kill',
    literal: 'Apr 17 15:57:31 runner01 gitlab-runner[1701482]: #033[0;33mWARNING: Job failed: exit code 137',
    body: 'podman exec sometimes reports 137 when the exec session is torn down, even without memory pressure.',
    solution: 'Upgrade podman; as a workaround retry the job or use the docker executor.',
    symptom: 'gitlab runner podman job failed exit code 137 no oom',
  },
  {
    id: 'pub2-compose-blk-explorer-exited-137',
    source: 'https://github.com/web3labs/blk-explorer-free/issues/10',
    ecosystem: 'docker',
    product: 'blk-explorer',
    title: 'blk-explorer container stops every so often with code 137',
    literal: 'blk-explorer-free exited with code 137',
    body: 'The explorer grows in memory while running 24/7 until the OOM killer stops it.',
    solution: 'Give the container more memory (or a restart policy) and check for the memory growth.',
    symptom: 'blockchain explorer container exited with code 137 periodically',
  },
];

/** Docker Hub rate limits as different clients report them. */
export const DOCKER_RATE_LIMIT_CASES: PublicCase[] = [
  {
    id: 'pub2-buildx-setup-toomanyrequests',
    source: 'https://github.com/docker/hub-feedback/issues/2429',
    ecosystem: 'docker',
    product: 'setup-buildx-action',
    title: 'GitHub Actions setup-buildx: pull rate limit while booting the builder',
    literal:
      'Error: ERROR: Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    body: 'The builder image (moby/buildkit) is pulled anonymously from the shared runner address, which hit the limit.',
    solution: 'docker/login-action before setup-buildx, or a registry mirror for the builder image.',
    symptom: 'github actions setup buildx pull rate limit booting builder',
  },
  {
    id: 'pub2-pwd-error-pulling-image-configuration-429',
    source: 'https://github.com/play-with-docker/play-with-docker/issues/422',
    ecosystem: 'docker',
    product: 'play-with-docker',
    title: 'Play with Docker: too many requests pulling the image configuration',
    literal:
      'error pulling image configuration: toomanyrequests: Too Many Requests. Please see https://docs.docker.com/docker-hub/download-rate-limit/',
    body: 'All sessions share a few public addresses, so the anonymous limit is reached quickly.',
    solution: 'docker login inside the session, or use images from another registry.',
    symptom: 'play with docker error pulling image configuration too many requests',
  },
  {
    id: 'pub2-artifactory-remote-429-redmine',
    source: 'https://github.com/docker/hub-feedback/issues/2040',
    ecosystem: 'docker',
    product: 'artifactory',
    title: 'Artifactory Docker remote repository gets 429 from registry-1.docker.io',
    literal:
      "Unable to create manifest markers for 'docker-remote:library/redmine/sha256__991c3847972deff8d8318f971783966066afbc39e6f6a2144f8a9a168b242f58/manifest.json': 'Error fetching https://registry-1.docker.io/v2/library/redmine/manifests/sha256:991c3847972deff8d8318f971783966066afbc39e6f6a2144f8a9a168b242f58 (remote response: 429: Too Many Requests)'",
    body: 'The remote repository hits the Hub anti-abuse limit (not the pull quota) with bursts of manifest requests.',
    solution: 'Throttle the automation and let Artifactory cache; authenticate the remote repository.',
    symptom: 'artifactory docker remote 429 too many requests registry-1',
  },
  {
    id: 'pub2-hub-unauthenticated-pull-rate-ipv6',
    source: 'https://github.com/docker/hub-feedback/issues/2505',
    ecosystem: 'docker',
    product: 'docker',
    title: 'Authenticated pulls over IPv6 counted as unauthenticated rate limit',
    literal:
      'Error response from daemon: toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit',
    body: 'Pulls from the provider IPv6 range were attributed to a shared anonymous limit.',
    solution: 'docker login and, if it persists, report the username and time to Docker support.',
    symptom: 'docker hub unauthenticated pull rate limit even though logged in ipv6',
  },
  {
    id: 'pub2-docker-cache-httpreadseeker-429',
    source: 'https://github.com/ScribeMD/docker-cache/issues/829',
    ecosystem: 'docker',
    product: 'docker-cache',
    title: 'CI cache restore works but buildx then hits 429 for the rust base image',
    literal:
      'ERROR: failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/rust/manifests/sha256:de6e081a4e9c10e70731071cec6f629892da1bbaa24b478a96bdc59060674117: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
    body: 'The build still resolves the base image manifest from Docker Hub, which counts against the anonymous limit of the runner.',
    solution: 'Log in to Docker Hub in the workflow or mirror the base image.',
    symptom: 'buildx httpreadseeker failed open 429 rust image',
  },
];
