/**
 * Error literals copied from public issue threads, each with the address it
 * came from. The literal is stored as a problem exactly as it was posted;
 * title, body, solution and the symptom query are ours (the symptom says
 * what an agent would type without the error text at hand). Machine
 * variants and substrings are generated from the literal
 * (bench/lib/eval-variants.ts).
 */
import type { PublicCase } from './eval-public/public-case.ts';
import { DATABASE_CASES, ELASTICSEARCH_DISK_CASES, MONGO_AUTH_CASES, MYSQL_SOCKET_CASES, POSTGRES_PASSWORD_CASES, POSTGRES_ROLE_CASES, POSTGRES_UNDEFINED_TABLE_CASES, REDIS_AUTH_CASES } from './eval-public/databases.ts';
import { BROWSER_CASES, CHROMIUM_LIBNSS_CASES } from './eval-public/browser.ts';
import { CLOUD_CASES, CLOUD_LOGIN_CASES, TERRAFORM_LOCK_CASES } from './eval-public/cloud.ts';
import { DOCKER_CASES, DOCKER_COPY_CASES, DOCKER_DAEMON_CASES, DOCKER_RATE_LIMIT_CASES, EXIT_137_CASES } from './eval-public/docker.ts';
import { GIT_CASES, GITHUB_PASSWORD_CASES } from './eval-public/git.ts';
import { GO_CASES, GO_PANIC_CASES, GO_PROXY_TIMEOUT_CASES } from './eval-public/go.ts';
import { GRADLE_RESOLVE_CASES, JAVA_CLASS_INIT_CASES } from './eval-public/java.ts';
import { CRASHLOOP_CASES, HELM_CASES, IMAGE_PULL_CASES, KUBECTL_CONNECTION_CASES, KUBERNETES_CASES } from './eval-public/kubernetes.ts';
import { NGINX_CASES } from './eval-public/nginx.ts';
import { NODE_LISTEN_EACCES_CASES, NODE_MODULE_CASES, NODE_OPENSSL_CASES, NPM_404_CASES, NPM_CASES } from './eval-public/npm.ts';
import { EXTERNALLY_MANAGED_CASES, LIBGL_CASES, PIP_NO_DISTRIBUTION_CASES, PIP_TIMEOUT_CASES, PYTHON_BIND_CASES, PYTHON_CASES, PYTHON_UNICODE_CASES } from './eval-public/python.ts';
import { RUST_CASES, RUST_RESOLVE_CASES } from './eval-public/rust.ts';
import { APT_PUBKEY_CASES } from './eval-public/linux.ts';
import { KAFKA_BROKER_CASES, RABBITMQ_AUTH_CASES } from './eval-public/messaging.ts';
import { SSH_CASES } from './eval-public/ssh.ts';
import { JAVA_PKIX_CASES, PYTHON_SSL_CASES, TLS_CASES } from './eval-public/tls.ts';
import { TS2339_CASES } from './eval-public/typescript.ts';

export type { PublicCase };

/** The first set, collected with the evaluation. */
const FIRST_CASES: PublicCase[] = [
  {
    id: 'pub-node-redis-refused-legacy', source: 'https://github.com/vpdb/server/issues/177', ecosystem: 'node', product: 'node-redis',
    title: 'node_redis cannot reach Redis on startup',
    literal: 'Error: Redis connection to 127.0.0.1:6379 failed - connect ECONNREFUSED 127.0.0.1:6379',
    body: 'The app server starts while no Redis server listens on the default port.',
    solution: 'Start redis-server (or the redis container) before the app and point REDIS_URL at it.',
    symptom: 'redis client connection refused on default port when app starts',
  },
  {
    id: 'pub-node-ioredis-refused', source: 'https://github.com/ArdaGnsrn/chatgpt-telegram/issues/1', ecosystem: 'node', product: 'redis',
    title: 'Telegram bot crashes: no Redis server installed',
    literal: "Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1495:16) {\n  errno: -61,\n  code: 'ECONNREFUSED',\n  syscall: 'connect',\n  address: '127.0.0.1',\n  port: 6379\n}",
    body: 'node index.js fails immediately on a laptop with no Redis installed.',
    solution: 'Install and start a Redis server locally (brew services start redis), or run it in Docker.',
    symptom: 'bot exits because nothing listens on the redis port',
  },
  {
    id: 'pub-mongo-vscode-both-loopbacks', source: 'https://github.com/mongodb-js/vscode/issues/1101', ecosystem: 'mongodb', product: 'mongodb-vscode',
    title: 'MongoDB extension cannot connect to a local server',
    literal: 'Unable to connect: connect ECONNREFUSED 127.0.0.1:27017, connect ECONNREFUSED ::1:27017',
    body: 'Both the IPv4 and the IPv6 loopback are refused: mongod is not running.',
    solution: 'Start the MongoDB service (net start MongoDB / brew services start mongodb-community) and reconnect.',
    symptom: 'vscode mongodb extension unable to connect to localhost 27017',
  },
  {
    id: 'pub-mongo-ipv6-loopback', source: 'https://github.com/iamshaunjp/complete-mongodb/issues/5', ecosystem: 'mongodb', product: 'mongodb-node-driver',
    title: 'Node 18 resolves localhost to ::1 and MongoDB only listens on IPv4',
    literal: 'MongoServerSelectionError: connect ECONNREFUSED ::1:27017\n    at Timeout._onTimeout (C:\\Users\\Jason\\Desktop\\MondoDB_tutorial\\node_modules\\mongodb\\lib\\sdam\\topology.js:285:38)\n    at listOnTimeout (node:internal/timers:564:17)\n    at process.processTimers (node:internal/timers:507:7)',
    body: 'mongosh connects, but the Node driver with mongodb://localhost:27017 fails since Node 17 prefers IPv6.',
    solution: 'Use mongodb://127.0.0.1:27017 in the connection string, or start mongod with --ipv6 / bindIpAll.',
    symptom: 'mongodb works in mongosh but node driver localhost refused ipv6',
  },
  {
    id: 'pub-mongoose-first-connect', source: 'https://github.com/Automattic/mongoose/issues/5550', ecosystem: 'mongodb', product: 'mongoose',
    title: 'mongoose fails on first connect',
    literal: 'MongoError: failed to connect to server [127.0.0.1:27017] on first connect [MongoError: connect ECONNREFUSED 127.0.0.1:27017]',
    body: 'The connection string points elsewhere but mongoose still dials the local default because the URI was not applied.',
    solution: 'Pass the full URI to mongoose.connect and make sure mongod is running where it points.',
    symptom: 'mongoose failed to connect to server on first connect',
  },
  {
    id: 'pub-go-x509-unknown-authority', source: 'https://github.com/neucn/ipgw/pull/34', ecosystem: 'go', product: 'go-net-http',
    title: 'Go HTTP client rejects a campus gateway certificate',
    literal: 'Get "https://ipgw.neu.edu.cn/srun_cas.php?ac_id=1": x509: certificate signed by unknown authority',
    body: 'The server presents a chain the Windows trust store does not hold, so net/http refuses it.',
    solution: 'Add the issuing CA to the system trust store (or to tls.Config.RootCAs); do not disable verification.',
    symptom: 'golang http get fails certificate signed by unknown authority',
  },
  {
    id: 'pub-k8s-insufficient-cpu-memory', source: 'https://github.com/ContainerSolutions/runbooks/issues/82', ecosystem: 'kubernetes', product: 'kubernetes',
    title: 'Pod pending: no node has the CPU and memory it requests',
    literal: '0/1 nodes are available: 1 insufficient cpu, 1 insufficient memory.',
    body: 'The pod requests more CPU and memory than any node has free.',
    solution: 'Lower the requests, free capacity, or add nodes (cluster autoscaler).',
    symptom: 'pod stuck pending not enough cpu and memory on nodes',
  },
  {
    id: 'pub-k8s-preemption-insufficient-memory', source: 'https://github.com/harvester/harvester/issues/3136', ecosystem: 'kubernetes', product: 'harvester',
    title: 'VM will not start: scheduler finds no memory and nothing to preempt',
    literal: '0/1 nodes are available: 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    body: 'The single node has too little memory left for the VM and no lower-priority pods to evict.',
    solution: 'Reduce the VM memory or stop other VMs; reserved memory overhead counts against the node.',
    symptom: 'virtual machine fails to start no preemption victims insufficient memory',
  },
  {
    id: 'pub-k8s-node-memory-pressure', source: 'https://github.com/kubernetes/kubernetes/issues/52166', ecosystem: 'kubernetes', product: 'kubernetes',
    title: 'Pod unschedulable because the node reports memory pressure',
    literal: "No nodes are available that match all of the following predicates:: NodeUnderMemoryPressure (1).",
    body: 'The only node is under memory pressure, so the scheduler filters it out.',
    solution: 'Free memory on the node or raise the eviction thresholds; add a node for the workload.',
    symptom: 'pod pending because node under memory pressure',
  },
  {
    id: 'pub-k8s-predicates-selector', source: 'https://github.com/argoproj/argo-workflows/issues/190', ecosystem: 'kubernetes', product: 'argo-workflows',
    title: 'Workflow pods unschedulable after upgrade: node selector and resources',
    literal: 'Warning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (9), Insufficient memory (15), MatchNodeSelector (18).',
    body: 'After the upgrade the workflow pods carry a node selector most nodes do not match, and the rest are full.',
    solution: 'Fix the nodeSelector in the workflow controller config, or label nodes to match it.',
    symptom: 'argo workflow pods failedscheduling match node selector insufficient cpu',
  },
  {
    id: 'pub-npm-etimedout-cdn-v4', source: 'https://github.com/npm/npm/issues/15889', ecosystem: 'node', product: 'npm',
    title: 'npm install times out reaching the registry CDN',
    literal: 'npm ERR! code ETIMEDOUT\nnpm ERR! errno ETIMEDOUT\nnpm ERR! syscall connect\nnpm ERR! network connect ETIMEDOUT 151.101.64.162:80',
    body: 'Behind a corporate network npm cannot reach the registry CDN address directly.',
    solution: 'Set the proxy and https-proxy npm config for the corporate proxy, or use an internal mirror.',
    symptom: 'npm install network timeout connecting to registry',
  },
  {
    id: 'pub-npm-etimedout-cdn-v6', source: 'https://github.com/nodejs/help/issues/4276', ecosystem: 'node', product: 'npm',
    title: 'npx create-react-app times out over IPv6 to the registry',
    literal: 'npm ERR! code ETIMEDOUT\nnpm ERR! syscall connect\nnpm ERR! errno ETIMEDOUT\nnpm ERR! network request to https://registry.npmjs.org/create-react-app failed, reason: connect ETIMEDOUT 2606:4700::6810:1a22:443',
    body: 'The machine has an IPv6 route that does not work; npm tries the IPv6 address of the CDN first.',
    solution: 'Prefer IPv4 (NODE_OPTIONS=--dns-result-order=ipv4first) or fix the IPv6 route.',
    symptom: 'npx create react app registry request failed etimedout ipv6',
  },
  {
    id: 'pub-npm-shasum-check', source: 'https://github.com/npm/npm/issues/7781', ecosystem: 'node', product: 'npm',
    title: 'npm shasum check failed on a truncated download',
    literal: 'npm ERR! shasum check failed for C:\\Users\\John\\AppData\\Local\\Temp\\npm-4504-7766cd51\\registry.npmjs.org\\core-util-is\\-\\core-util-is-1.0.1.tgz\nnpm ERR! Expected: 6b07085aef9a3ccac6ee53bf9d3df0c1521a5538\nnpm ERR! Actual:   da39a3ee5e6b4b0d3255bfef95601890afd80709',
    body: 'The actual hash is that of an empty file: the download was cut off by the network or proxy.',
    solution: 'npm cache clean --force and retry; check the proxy that truncates downloads.',
    symptom: 'npm shasum check failed expected actual empty download',
  },
  {
    id: 'pub-k8s-pull-access-denied', source: 'https://www.fixwikihub.com/articles/fix-kubernetes-pod-imagepullbackoff', ecosystem: 'kubernetes', product: 'kubernetes',
    title: 'ImagePullBackOff: private registry refuses the pull',
    literal: 'Failed to pull image "myregistry.io/my-app:v1": rpc error: code = Unknown desc = Error response from daemon: pull access denied',
    body: 'The pod pulls from a private registry without an imagePullSecret.',
    solution: 'Create a docker-registry secret and reference it in imagePullSecrets of the pod or service account.',
    symptom: 'kubernetes image pull back off private registry access denied',
  },
  {
    id: 'pub-psycopg2-refused-v4', source: 'https://github.com/thenewboston-blockchain/Validator/issues/76', ecosystem: 'python', product: 'psycopg2',
    title: 'psycopg2 cannot connect: PostgreSQL not accepting connections',
    literal: 'could not connect to server: Connection refused Is the server running on host "localhost" (127.0.0.1) and accepting TCP/IP connections on port 5432?',
    body: 'PostgreSQL is not running, or listens only on a socket, when the validator starts.',
    solution: 'Start PostgreSQL and set listen_addresses; check the port in postgresql.conf matches.',
    symptom: 'python postgres connection refused is the server running on host localhost',
  },
  {
    id: 'pub-psycopg2-refused-windows', source: 'https://github.com/Django-CRM/Django-CRM/issues/447', ecosystem: 'python', product: 'django',
    title: 'Django on Windows: PostgreSQL service not running',
    literal: 'psycopg2.OperationalError: could not connect to server: Connection refused (0x0000274D/10061)\n        Is the server running on host "localhost" (::1) and accepting\n        TCP/IP connections on port 5432?',
    body: 'The Windows PostgreSQL service is stopped, so both loopbacks refuse with WSAECONNREFUSED.',
    solution: 'Start the postgresql-x64 service in services.msc, or run pg_ctl start.',
    symptom: 'django windows postgres connection refused 10061',
  },
  {
    id: 'pub-psycopg2-new-format', source: 'https://github.com/worldveil/dejavu/issues/306', ecosystem: 'python', product: 'psycopg2',
    title: 'psycopg2 (libpq 14+) refused on both loopbacks in the Docker example',
    literal: 'psycopg2.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n        Is the server running on that host and accepting TCP/IP connections?\nconnection to server at "localhost" (::1), port 5432 failed: Cannot assign requested address',
    body: 'The example runs on the host while Postgres runs in a container without a published port.',
    solution: 'Publish 5432 in docker-compose (ports: ["5432:5432"]) or run the script inside the compose network.',
    symptom: 'connection to server at localhost port 5432 failed cannot assign requested address',
  },
  {
    id: 'pub-es-py-newconnection', source: 'https://github.com/StonyBrookNLP/ircot/issues/28', ecosystem: 'python', product: 'elasticsearch-py',
    title: 'elasticsearch-py cannot connect: Elasticsearch not started',
    literal: 'elasticsearch.exceptions.ConnectionError: ConnectionError(<urllib3.connection.HTTPConnection object at 0x7f0ac0ca7a60>: Failed to establish a new connection: [Errno 111] Connection refused) caused by: NewConnectionError(<urllib3.connection.HTTPConnection object at 0x7f0ac0ca7a60>: Failed to establish a new connection: [Errno 111] Connection refused)',
    body: 'The retriever expects Elasticsearch on localhost:9200 but it is not running.',
    solution: 'Start Elasticsearch (brew services start elasticsearch-full, or the docker image) and wait for green.',
    symptom: 'elasticsearch python client failed to establish a new connection refused',
  },
  {
    id: 'pub-es-py-max-retries', source: 'https://github.com/elastic/elasticsearch-py/issues/1239', ecosystem: 'python', product: 'elasticsearch-py',
    title: 'Max retries exceeded reaching Elasticsearch on 9200',
    literal: "elasticsearch.exceptions.ConnectionError: ConnectionError(HTTPConnectionPool(host='localhost', port=9200): Max retries exceeded with url: /keywords (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x1109ffb50>: Failed to establish a new connection: [Errno 61] Connection refused')))",
    body: 'On macOS nothing listens on 9200: the Elasticsearch process exited.',
    solution: 'Check the Elasticsearch logs (heap, vm.max_map_count), start it, then retry; use the right host and port.',
    symptom: 'elasticsearch max retries exceeded with url port 9200',
  },
  {
    id: 'pub-torch-cuda-oom', source: 'https://github.com/easydiffusion/easydiffusion/issues/104', ecosystem: 'python', product: 'pytorch',
    title: 'CUDA out of memory on a 4 GB GPU',
    literal: 'RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 4.00 GiB total capacity; 3.35 GiB already allocated; 0 bytes free; 3.41 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF',
    body: 'The model does not fit in the GPU memory at full precision.',
    solution: 'Use half precision, a smaller batch or image size, and set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128.',
    symptom: 'pytorch gpu runs out of memory tried to allocate',
  },
  {
    id: 'pub-yum-no-baseurl', source: 'https://github.com/hitachienergy/epiphany/issues/682', ecosystem: 'linux', product: 'yum',
    title: 'yum cannot find a valid baseurl for the base repo',
    literal: 'Failure talking to yum: Cannot find a valid baseurl for repo: base/7/x86_64',
    body: 'The repositories have expired metadata or the mirror list is unreachable.',
    solution: 'Point the repo at vault.centos.org (CentOS 7 is end of life) or fix DNS/proxy, then yum clean all.',
    symptom: 'centos 7 yum cannot find valid baseurl',
  },
  {
    id: 'pub-dnf-appstream-mirrorlist', source: 'https://github.com/yankils/Simple-DevOps-Project/pull/85', ecosystem: 'linux', product: 'dnf',
    title: 'CentOS 8 image: no URLs in mirrorlist for appstream',
    literal: "Error: Failed to download metadata for repo 'appstream': Cannot prepare internal mirrorlist: No URLs in mirrorlist",
    body: 'CentOS 8 reached end of life and its mirrors were removed.',
    solution: "sed -i 's/mirrorlist/#mirrorlist/g; s|#baseurl=http://mirror.centos.org|baseurl=http://vault.centos.org|g' /etc/yum.repos.d/CentOS-*",
    symptom: 'docker build centos 8 failed to download metadata for repo appstream',
  },
  {
    id: 'pub-dnf-repomd-all-mirrors', source: 'https://github.com/AlmaLinux/almalinux-deploy/issues/123', ecosystem: 'linux', product: 'dnf',
    title: 'dnf: all mirrors were tried for BaseOS',
    literal: "Error: Failed to download metadata for repo 'BaseOS': Cannot download repomd.xml: Cannot download repodata/repomd.xml: All mirrors were tried",
    body: 'After migrating, the old repo files still point at CentOS mirrors that are gone.',
    solution: 'Replace the baseurl lines with the AlmaLinux repositories and run dnf clean all.',
    symptom: 'dnf cannot download repomd.xml all mirrors were tried',
  },
  {
    id: 'pub-apt-lock-frontend', source: 'https://github.com/servo/ci-runners/issues/57', ecosystem: 'linux', product: 'apt',
    title: 'apt-get in CI blocked by unattended-upgrades',
    literal: 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 2448 (unattended-upgr)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?',
    body: 'A fresh runner image starts unattended-upgrades at boot, which holds the dpkg lock.',
    solution: 'Disable unattended-upgrades in the image, or wait: while fuser /var/lib/dpkg/lock-frontend; do sleep 5; done.',
    symptom: 'apt get install fails dpkg frontend lock held by another process',
  },
  {
    id: 'pub-terraform-aws-no-credentials', source: 'https://github.com/aws-quickstart/terraform-aws-vpc/issues/6', ecosystem: 'terraform', product: 'terraform-aws-provider',
    title: 'Terraform AWS provider finds no credentials',
    literal: 'Error: error configuring Terraform AWS Provider: no valid credential sources for Terraform AWS Provider found.\n\nPlease see https://registry.terraform.io/providers/hashicorp/aws\nfor more information about providing credentials.\n\nError: NoCredentialProviders: no valid providers in chain. Deprecated.\n\tFor verbose messaging see aws.Config.CredentialsChainVerboseErrors',
    body: 'terraform apply runs where neither environment variables nor ~/.aws/credentials hold a profile.',
    solution: 'aws configure (or export AWS_PROFILE / AWS_ACCESS_KEY_ID), then check with aws sts get-caller-identity.',
    symptom: 'terraform apply aws provider no credentials found',
  },
  {
    id: 'pub-terraform-aws-legacy-credentials', source: 'https://github.com/byt3bl33d3r/Red-Baron/issues/12', ecosystem: 'terraform', product: 'terraform',
    title: 'Terraform 0.11: No valid credential sources found while refreshing state',
    literal: 'Error: Error refreshing state: 1 error(s) occurred:\n\n* provider.aws: No valid credential sources found for AWS Provider.\n        Please see https://terraform.io/docs/providers/aws/index.html for more information on\n        providing credentials for the AWS Provider',
    body: 'The old provider reads only the default profile; the credentials are under another name.',
    solution: 'Set profile in the provider block or export AWS_PROFILE before terraform plan.',
    symptom: 'terraform plan error refreshing state provider aws credentials',
  },
  {
    id: 'pub-kafka-topic-not-in-metadata', source: 'https://github.com/confluentinc/ksql/issues/3653', ecosystem: 'java', product: 'kafka',
    title: 'Producer times out: topic not present in metadata',
    literal: 'org.apache.kafka.common.errors.TimeoutException: Topic pageviews not present in metadata after 60000 ms.',
    body: 'The producer cannot fetch metadata for the topic: it does not exist and auto-creation is off, or the broker is unreachable.',
    solution: 'Create the topic first (kafka-topics --create) and check advertised.listeners is reachable from the client.',
    symptom: 'kafka producer topic not present in metadata timeout',
  },
  {
    id: 'pub-kafka-fetch-metadata', source: 'https://github.com/apache/pinot/issues/14372', ecosystem: 'java', product: 'apache-pinot',
    title: 'Pinot realtime table: timeout fetching Kafka topic metadata',
    literal: 'Caused by: org.apache.kafka.common.errors.TimeoutException: Timeout expired while fetching topic metadata',
    body: 'The Pinot controller cannot reach the Kafka broker address given in the stream config.',
    solution: 'Use a broker address reachable from the Pinot containers (the advertised listener, not localhost).',
    symptom: 'pinot kafka timeout expired while fetching topic metadata',
  },
  {
    id: 'pub-librdkafka-metadata-timeout', source: 'https://github.com/streamnative/kop/issues/407', ecosystem: 'dotnet', product: 'librdkafka',
    title: 'librdkafka: Timed out MetadataRequest in flight',
    literal: '%5|1616160592.294|REQTMOUT|rdkafka#producer-1| [thrd:broker-name:9092/bootstrap]: broker-name:9092/763435560: Timed out MetadataRequest in flight (after 59267ms, timeout #0)',
    body: 'The .NET client reaches the bootstrap address but the broker never answers the metadata request.',
    solution: 'Check the listener and protocol (PLAINTEXT vs SASL_SSL) match what the broker expects.',
    symptom: 'dotnet kafka client timed out metadatarequest in flight',
  },
  {
    id: 'pub-laravel-mysql-refused', source: 'https://github.com/coderstape/freeCodeGram/issues/1', ecosystem: 'php', product: 'laravel',
    title: 'php artisan migrate: MySQL connection refused',
    literal: 'Illuminate\\Database\\QueryException  : SQLSTATE[HY000] [2002] Connection refused',
    body: 'DB_HOST points at 127.0.0.1:3306 but MySQL is not running there (or runs in another container).',
    solution: 'Start MySQL, or set DB_HOST to the mysql service name inside docker-compose; clear the config cache.',
    symptom: 'laravel migrate sqlstate 2002 connection refused mysql',
  },
  {
    id: 'pub-laravel-refused-with-sql', source: 'https://github.com/nWidart/laravel-modules/issues/886', ecosystem: 'php', product: 'laravel',
    title: 'Query fails with SQLSTATE 2002 after DB_HOST was overridden',
    literal: 'SQLSTATE[HY000] [2002] Connection refused (SQL: select * from `categories`)',
    body: 'A cached config or another .env overrides DB_HOST to 127.0.0.1.',
    solution: 'php artisan config:clear, and check which .env the process loads.',
    symptom: 'laravel query connection refused sql select after migration worked',
  },
  {
    id: 'pub-docker-hub-client-timeout', source: 'https://github.com/exadel-inc/CompreFace/issues/1277', ecosystem: 'docker', product: 'docker',
    title: 'docker pull: timeout awaiting headers from Docker Hub',
    literal: 'Error response from daemon: Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)',
    body: 'The network blocks or throttles Docker Hub; the daemon gives up after its client timeout.',
    solution: 'Configure registry-mirrors in /etc/docker/daemon.json or an HTTP proxy for the daemon, then restart docker.',
    symptom: 'docker compose up cannot pull images from docker hub timeout',
  },
  {
    id: 'pub-docker-private-registry-timeout', source: 'https://github.com/docker/for-win/issues/5983', ecosystem: 'docker', product: 'jenkins',
    title: 'Jenkins pipeline cannot reach the private registry',
    literal: 'Error response from daemon: Get https://dockerregistry:port/v2/: net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)',
    body: 'The Jenkins agent resolves the registry name but the port is filtered.',
    solution: 'Open the registry port from the agent network, or add the registry to the daemon proxy NO_PROXY list.',
    symptom: 'jenkins docker login private registry request canceled timeout',
  },
  {
    id: 'pub-pika-ipv6-fallback', source: 'https://github.com/pika/pika/issues/1037', ecosystem: 'python', product: 'pika',
    title: 'pika warns that ::1:5672 refused before connecting over IPv4',
    literal: 'WARNING - Connection to ::1:5672 failed: [Errno 111] Connection refused',
    body: 'localhost resolves to both addresses; RabbitMQ listens only on IPv4, so the first attempt fails and the second works.',
    solution: 'Harmless; connect to 127.0.0.1 explicitly, or make RabbitMQ listen on [::] as well.',
    symptom: 'pika warning rabbitmq ipv6 localhost refused then connects',
  },
  {
    id: 'pub-celery-amqp-refused', source: 'https://github.com/TophantTechnology/ARL/issues/551', ecosystem: 'python', product: 'celery',
    title: 'Celery worker cannot connect to RabbitMQ',
    literal: '[2023-04-30 19:26:50,415: ERROR/MainProcess] consumer: Cannot connect to amqp://arl:**@rabbitmq:5672/arlv2host: [Errno 111] Connection refused.\nTrying again in 4.00 seconds... (2/100)',
    body: 'The worker starts before the rabbitmq container is ready (or the container keeps crashing).',
    solution: 'Add a healthcheck to rabbitmq and depends_on: condition: service_healthy; check the broker logs.',
    symptom: 'celery consumer cannot connect to amqp connection refused trying again',
  },
  {
    id: 'pub-pika-amqp-connection-error', source: 'https://github.com/pika/pika/issues/1318', ecosystem: 'python', product: 'pika',
    title: 'pika.exceptions.AMQPConnectionError in docker-compose',
    literal: '  File "/usr/local/lib/python3.8/site-packages/pika/adapters/blocking_connection.py", line 451, in _create_connection\n     raise self._reap_last_connection_workflow_error(error)\n pika.exceptions.AMQPConnectionError',
    body: 'The Django service starts and connects before the rabbitmq service accepts connections.',
    solution: 'Retry the BlockingConnection with backoff, or wait for the broker healthcheck before starting.',
    symptom: 'pika blocking connection amqpconnectionerror docker compose',
  },
];

/** Every public case: the first set and the per-product files of eval-public/. */
export const PUBLIC_CASES: PublicCase[] = [
  ...FIRST_CASES,
  ...DATABASE_CASES, ...POSTGRES_ROLE_CASES, ...DOCKER_CASES, ...GIT_CASES, ...KUBERNETES_CASES, ...NGINX_CASES,
  ...NPM_CASES, ...NODE_MODULE_CASES, ...PYTHON_CASES, ...RUST_CASES, ...TLS_CASES,
  ...DOCKER_DAEMON_CASES, ...KUBECTL_CONNECTION_CASES, ...JAVA_PKIX_CASES,
  ...PIP_NO_DISTRIBUTION_CASES, ...GO_CASES, ...IMAGE_PULL_CASES,
  ...MYSQL_SOCKET_CASES, ...PYTHON_SSL_CASES, ...CLOUD_CASES,
  ...REDIS_AUTH_CASES, ...MONGO_AUTH_CASES, ...BROWSER_CASES,
  ...LIBGL_CASES, ...HELM_CASES, ...JAVA_CLASS_INIT_CASES,
  ...RUST_RESOLVE_CASES, ...TERRAFORM_LOCK_CASES, ...TS2339_CASES,
  ...CRASHLOOP_CASES, ...PYTHON_UNICODE_CASES, ...SSH_CASES,
  ...NODE_OPENSSL_CASES, ...DOCKER_COPY_CASES, ...ELASTICSEARCH_DISK_CASES,
  ...APT_PUBKEY_CASES, ...CHROMIUM_LIBNSS_CASES, ...NPM_404_CASES,
  ...POSTGRES_PASSWORD_CASES, ...GRADLE_RESOLVE_CASES, ...GO_PANIC_CASES,
  ...RABBITMQ_AUTH_CASES, ...KAFKA_BROKER_CASES, ...CLOUD_LOGIN_CASES,
  ...EXIT_137_CASES, ...EXTERNALLY_MANAGED_CASES, ...NODE_LISTEN_EACCES_CASES,
  ...POSTGRES_UNDEFINED_TABLE_CASES, ...PYTHON_BIND_CASES, ...GITHUB_PASSWORD_CASES,
  ...GO_PROXY_TIMEOUT_CASES, ...PIP_TIMEOUT_CASES, ...DOCKER_RATE_LIMIT_CASES,
];
