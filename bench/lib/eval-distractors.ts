/**
 * Near-duplicate distractors generated from the evaluation's cases: the
 * same error for another well-known service. A case whose literal names
 * one service port (5432, 6379, 27017, ...) gets a twin record naming
 * another service's port, with the service's names swapped in its title,
 * body and solution. The twin has no queries of its own; it only stands in
 * the way, as the records of other users do: a query for the Redis error
 * must rank the Redis record above its PostgreSQL twin, which reads the
 * same once the normalizer has masked the port.
 */

interface DistractorSource {
  id: string;
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
}
export interface Distractor {
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
}

/** Each service port, the names a title or body calls the service by, and the port its twin takes. */
const SERVICES: Array<{ port: string; names: string[]; name: string; twin: string }> = [
  { port: '5432', names: ['PostgreSQL', 'Postgres', 'postgres', 'psql'], name: 'PostgreSQL', twin: '3306' },
  { port: '3306', names: ['MySQL', 'MariaDB', 'mysql'], name: 'MySQL', twin: '5432' },
  { port: '6379', names: ['Redis', 'redis'], name: 'Redis', twin: '11211' },
  { port: '11211', names: ['Memcached', 'memcached'], name: 'Memcached', twin: '6379' },
  { port: '27017', names: ['MongoDB', 'Mongo', 'mongod', 'mongo'], name: 'MongoDB', twin: '5432' },
  { port: '5672', names: ['RabbitMQ', 'AMQP', 'amqp', 'rabbitmq'], name: 'RabbitMQ', twin: '6379' },
  { port: '9200', names: ['Elasticsearch', 'elasticsearch'], name: 'Elasticsearch', twin: '27017' },
  { port: '9092', names: ['Kafka', 'kafka'], name: 'Kafka', twin: '5672' },
];

const byPort = new Map(SERVICES.map((service) => [service.port, service]));

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The twins of the cases that name exactly one service port. */
export function serviceTwins(cases: readonly DistractorSource[]): Distractor[] {
  const out: Distractor[] = [];
  for (const c of cases) {
    const ports = new Set(
      [...c.literal.matchAll(/(?<![0-9])(5432|3306|6379|11211|27017|5672|9200|9092)(?![0-9])/g)].map((m) => m[1]!),
    );
    if (ports.size !== 1) continue;
    const from = byPort.get([...ports][0]!)!;
    const to = byPort.get(from.twin)!;
    const names = new RegExp(`\\b(?:${from.names.map(escapeRegex).join('|')})\\b`, 'g');
    const port = new RegExp(`(?<![0-9])${from.port}(?![0-9])`, 'g');
    const rename = (text: string) => text.replace(names, to.name).replace(port, to.port);
    const title = rename(c.title);
    // A twin must differ in what it is about, not only in its literal's port.
    if (title === c.title) continue;
    out.push({
      ecosystem: c.ecosystem,
      product: rename(c.product),
      title,
      literal: c.literal.replace(port, to.port),
      body: rename(c.body),
      solution: rename(c.solution),
    });
  }
  return out;
}
