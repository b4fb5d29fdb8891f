/**
 * Public error literals from message brokers and their clients (RabbitMQ,
 * Kafka), each with the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

/** RabbitMQ login refusals, told apart by the client that prints them. */
export const RABBITMQ_AUTH_CASES: PublicCase[] = [
  {
    id: 'pub2-amqplib-access-refused-plain',
    source: 'https://github.com/amqp-node/amqplib/issues/574',
    ecosystem: 'node',
    product: 'amqplib',
    title: 'amqplib: ACCESS_REFUSED because a second connect used other credentials',
    literal: 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN.',
    body: 'The code base opened several AMQP connections; one of them used a wrong URL.',
    solution: 'Use one connection URL from configuration; URL-encode special characters in the password.',
    symptom: 'amqplib node access refused login plain',
  },
  {
    id: 'pub2-rabbit-broker-log-amqplain-invalid-credentials',
    source: 'https://github.com/php-amqplib/php-amqplib/issues/273',
    ecosystem: 'php',
    product: 'php-amqplib',
    title: 'Broker log: AMQPLAIN login refused for a user that no longer exists',
    literal:
      'closing AMQP connection <0.506.0> (127.0.0.1:48722 -> 127.0.0.1:5672):\n{handshake_error,starting,0,\n{amqp_error,access_refused,\n"AMQPLAIN login refused: user \'rabbit\' - invalid credentials",',
    body: 'An old wrapper configuration still connects as user rabbit, removed when RabbitMQ was reinstalled.',
    solution: 'Fix the user in the application configuration (rabbitmqctl list_users shows the existing ones).',
    symptom: 'rabbitmq broker log handshake error amqplain login refused invalid credentials',
  },
  {
    id: 'pub2-rabbitmq-c-amqp-login-403h',
    source: 'https://github.com/alanxz/rabbitmq-c/issues/490',
    ecosystem: 'c',
    product: 'rabbitmq-c',
    title: 'rabbitmq-c examples from a VM: guest may only log in from localhost',
    literal:
      'Logging in: server connection errror 403h, message: ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. for details see the broker logfile.',
    body: 'The guest/guest user is restricted to loopback connections; the VM connects over the network.',
    solution: 'Create a dedicated user with permissions on the vhost and use it from the VM.',
    symptom: 'rabbitmq-c amqp_login 403 guest from virtual machine',
  },
  {
    id: 'pub2-amqplib-handshake-terminated-403',
    source: 'https://github.com/amqp-node/amqplib/issues/237',
    ecosystem: 'node',
    product: 'amqplib',
    title: 'amqplib: handshake terminated by server 403 (ACCESS-REFUSED)',
    literal:
      'Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile."',
    body: 'Wrong credentials, or the guest user used from a remote host.',
    solution: 'rabbitmqctl add_user, set_permissions, and connect with amqp://user:password@host:5672.',
    symptom: 'amqplib handshake terminated by server 403 access refused',
  },
  {
    id: 'pub2-laravel-rabbitmq-amqplain-0-0',
    source: 'https://github.com/kunalvarma05/laravel-rabbitmq/issues/17',
    ecosystem: 'php',
    product: 'laravel-rabbitmq',
    title: 'Laravel RabbitMQ: ACCESS_REFUSED AMQPLAIN (0, 0)',
    literal:
      'ACCESS_REFUSED - Login was refused using authentication mechanism AMQPLAIN. For details see the broker logfile.(0, 0)',
    body: 'The .env RabbitMQ credentials are wrong or the user lacks permissions on the vhost.',
    solution: 'Check RABBITMQ_USER/PASSWORD/VHOST and the permissions of that user.',
    symptom: 'laravel rabbitmq amqplain access refused',
  },
  {
    id: 'pub2-java-rabbit-authenticationfailureexception',
    source: 'https://github.com/rabbitmq/rabbitmq-server/issues/1081',
    ecosystem: 'java',
    product: 'rabbitmq-java-client',
    title: 'Java client: AuthenticationFailureException ACCESS_REFUSED',
    literal:
      'com.rabbitmq.client.AuthenticationFailureException: ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.',
    body: 'The broker rejected the credentials; its log says which user and why.',
    solution: 'Read the broker log (connection lifecycle events) and fix the user, password or vhost permissions.',
    symptom: 'java rabbitmq client authentication failure exception',
  },
  {
    id: 'pub2-arl-docker-403-access-refused',
    source: 'https://github.com/honmashironeko/ARL-docker/issues/21',
    ecosystem: 'docker',
    product: 'arl',
    title: 'ARL scanner in Docker: RabbitMQ rejects the arl user (403)',
    literal:
      '系统异常 error:(0, 0): (403) ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.',
    body: 'The RabbitMQ container lost the arl user and vhost it was set up with.',
    solution: 'rabbitmqctl add_user arl ..., add_vhost arlv2host, set_permissions; or redeploy.',
    symptom: 'arl docker rabbitmq 403 access refused scan not working',
  },
  {
    id: 'pub2-dotnet-rabbit-broker-unreachable-auth',
    source: 'https://github.com/rabbitmq/rabbitmq-server/issues/2309',
    ecosystem: 'dotnet',
    product: 'rabbitmq-dotnet-client',
    title: '.NET client on ECS: BrokerUnreachableException caused by AuthenticationFailureException',
    literal:
      'RabbitMQ.Client.Exceptions.BrokerUnreachableException: None of the specified endpoints were reachable ---> RabbitMQ.Client.Exceptions.AuthenticationFailureException: ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.',
    body: 'In ECS the service gets other credentials (or the guest user from a non-local address) than on the VPN.',
    solution: 'Pass the broker credentials to the task definition and do not use guest remotely.',
    symptom: 'dotnet rabbitmq none of the specified endpoints reachable access refused aws ecs',
  },
];

/** Kafka clients that cannot reach a broker, told apart by the client and the node. */
export const KAFKA_BROKER_CASES: PublicCase[] = [
  {
    id: 'pub2-kafka-connect-standalone-node-minus1',
    source: 'https://github.com/Eneco/kafka-connect-twitter/issues/48',
    ecosystem: 'kafka',
    product: 'kafka-connect',
    title: 'connect-standalone cannot reach the broker: wrong port in the worker config',
    literal: 'WARN Connection to node -1 could not be established. Broker may not be available.',
    body: 'bootstrap.servers in the worker properties names another port than the broker listens on.',
    solution: 'Fix bootstrap.servers to the broker listener address.',
    symptom: 'kafka connect standalone broker may not be available port',
  },
  {
    id: 'pub2-lagom-networkclient-node-minus1',
    source: 'https://github.com/lagom/lagom/issues/1285',
    ecosystem: 'kafka',
    product: 'lagom',
    title: 'Lagom dev mode keeps logging that the embedded Kafka is not available',
    literal:
      '2019-01-19T14:22:13.633Z [warn] org.apache.kafka.clients.NetworkClient [] - Connection to node -1 could not be established. Broker may not be available.',
    body: 'The embedded Kafka failed to start (stale ZooKeeper data or an unsupported Java version).',
    solution: 'Check the Kafka log under target/lagom-dynamic-projects; clear its data directory or run on Java 8.',
    symptom: 'lagom embedded kafka broker not available warn',
  },
  {
    id: 'pub2-debezium-node-1-not-established',
    source: 'https://github.com/DamonChow/debezium-mysql/issues/3',
    ecosystem: 'kafka',
    product: 'debezium',
    title: 'Debezium example: node 1 (advertised container address) unreachable',
    literal: 'Connection to node 1 could not be established. Broker may not be available.',
    body: 'The broker advertises its container IP (172.17.0.4), which the host application cannot reach.',
    solution: 'Set advertised.listeners to an address reachable from the client (localhost for a host client).',
    symptom: 'debezium kafka node 1 could not be established advertised listener docker',
  },
  {
    id: 'pub2-kafdrop-adminclient-node-minus1',
    source: 'https://github.com/airbnb/kafkat/issues/37',
    ecosystem: 'kafka',
    product: 'kafdrop',
    title: 'Kafdrop in Docker cannot reach the broker at the host address',
    literal:
      '2020-10-15 14:12:38.893 WARN 1 [| kafdrop-admin] o.a.k.c.NetworkClient : [AdminClient clientId=kafdrop-admin] Connection to node -1 (/192.168.37.31:9092) could not be established. Broker may not be available.',
    body: 'The broker listens only on localhost of the host; the container connects to the host address.',
    solution: 'Make the broker listen on an interface the container reaches and advertise that address.',
    symptom: 'kafdrop docker admin client broker not available',
  },
  {
    id: 'pub2-kafka-console-consumer-node-0-localhost',
    source: 'https://github.com/zhujiwan888/newbie/issues/66',
    ecosystem: 'kafka',
    product: 'kafka',
    title: 'console consumer: node 0 advertised as localhost but broker listens on another address',
    literal:
      'WARN [Consumer clientId=consumer-1, groupId=console-consumer-24399] Connection to node 0 (localhost/127.0.0.1:9092) could not be established. Broker may not be available. (org.apache.kafka.clients.Net',
    body: 'listeners=PLAINTEXT://172.22.53.11:9092 while the metadata sends clients to localhost.',
    solution: 'Align listeners and advertised.listeners with the address clients use.',
    symptom: 'kafka console consumer node 0 localhost 9092 listeners',
  },
  {
    id: 'pub2-spring-kafka-consumer-temp-groupid',
    source: 'https://github.com/sulthan309/Live-Dashboard-using-Kafka-and-Spring-Websocket/issues/1',
    ecosystem: 'kafka',
    product: 'spring-kafka',
    title: 'Spring Kafka dashboard consumer cannot reach the broker',
    literal:
      '[Consumer clientId=consumer-1, groupId=temp-groupid.group] Connection to node -1 could not be established. Broker may not be available.',
    body: 'No broker runs at the bootstrap address configured in application properties.',
    solution: 'Start Kafka (and ZooKeeper) before the app, or set spring.kafka.bootstrap-servers correctly.',
    symptom: 'spring kafka websocket dashboard consumer broker not available',
  },
  {
    id: 'pub2-quarkus-kafka-dev-service-random-port',
    source: 'https://github.com/apache/incubator-kie-kogito-runtimes/pull/3046',
    ecosystem: 'kafka',
    product: 'quarkus-kafka',
    title: 'Quarkus tests: consumers dial a Kafka dev service port that is gone',
    literal:
      '[Consumer clientId=kafka-consumer-visa_approved_in_transition, groupId=kogito-quarkus-serverless-workflow-integration-test] Connection to node 0 (localhost/127.0.0.1:33834) could not be established. Broker may not be available.',
    body: 'The Kafka dev service container stopped (or is not ready) while consumers still poll its mapped port.',
    solution: 'Wait for the dev services to be healthy before tests start (a startup health check).',
    symptom: 'quarkus kafka dev services consumer node 0 random port not available',
  },
  {
    id: 'pub2-canal-producer-node-minus1',
    source: 'https://github.com/alibaba/canal/issues/1634',
    ecosystem: 'kafka',
    product: 'canal',
    title: 'canal server cannot produce to Kafka: broker address in canal.properties',
    literal:
      '[kafka-producer-network-thread | producer-1] WARN  org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node -1 could not be established. Broker may not be available.',
    body: 'canal.mq.servers points at an address where the broker does not listen (works from the console).',
    solution: 'Set canal.mq.servers to the broker listener reachable from the canal host.',
    symptom: 'canal binlog to kafka producer node -1 not available',
  },
  {
    id: 'pub2-kafka-adminclient-setest01',
    source: 'https://github.com/Seagate/cortx-s3server/issues/947',
    ecosystem: 'kafka',
    product: 'cortx-s3server',
    title: 'S3 message bus setup: admin client cannot reach Kafka on setest01',
    literal:
      '[2021-05-31 05:32:51,842] WARN [AdminClient clientId=adminclient-1] Connection to node -1 (setest01/127.0.0.1:9092) could not be established. Broker may not be available. (org.apache.kafka.clients.NetworkClient)',
    body: 'Kafka is not running on the node when the message bus configuration is created.',
    solution: 'Start the Kafka service (and ZooKeeper) first, then rerun the setup.',
    symptom: 'cortx s3 message bus kafka admin client broker not available',
  },
];
