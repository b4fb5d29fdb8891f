/**
 * Public error literals from nginx and other web servers and proxies, each
 * with the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const NGINX_CASES: PublicCase[] = [
  {
    id: 'pub2-nginx-bind-v4-80-restart',
    source: 'https://github.com/EasyEngine/easyengine/issues/10',
    ecosystem: 'nginx',
    product: 'nginx',
    title: 'nginx restart fails: port 80 on all IPv4 addresses already in use',
    literal:
      'Restarting nginx: nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\nnginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)',
    body: 'Another web server (often Apache) or a stale nginx master still listens on port 80.',
    solution: 'Find it with sudo ss -ltnp | grep :80 (or fuser 80/tcp), stop it, then start nginx.',
    symptom: 'nginx restart port 80 already in use apache',
  },
  {
    id: 'pub2-nginx-bind-v6-80-ipv6only',
    source: 'https://github.com/XTLS/Xray-examples/issues/69',
    ecosystem: 'nginx',
    product: 'nginx',
    title: 'nginx cannot bind [::]:80 because an IPv4 listener already has the port',
    literal: 'nginx: [emerg] bind() to [::]:80 failed (98: Address already in use)',
    body: 'listen [::]:80 ipv6only=off also takes the IPv4 port, so a second listen 80 (or another server) collides with it.',
    solution: 'Use either listen 80 plus listen [::]:80 (ipv6only on), or a single dual-stack listen, not both.',
    symptom: 'nginx ipv6 listen port 80 address in use ipv6only',
  },
  {
    id: 'pub2-nginx-bind-rtmp-1935',
    source: 'https://github.com/WWBN/AVideo/issues/989',
    ecosystem: 'nginx',
    product: 'nginx-rtmp',
    title: 'Stream server: nginx RTMP port 1935 and 8080 already in use',
    literal:
      'nginx: [emerg] bind() to 0.0.0.0:1935 failed (98: Address already in use)\nnginx: [emerg] bind() to 0.0.0.0:8080 failed (98: Address already in use)',
    body: 'The tutorial starts nginx a second time while the first instance already serves RTMP and HTTP.',
    solution: 'nginx is already running; reload it (nginx -s reload) instead of starting another.',
    symptom: 'nginx rtmp 1935 address already in use when starting stream server',
  },
  {
    id: 'pub2-nginx-bind-v6-still-could-not',
    source: 'https://github.com/xtr4nge/FruityWifi/issues/224',
    ecosystem: 'nginx',
    product: 'nginx',
    title: 'nginx error log: still could not bind() to [::]:80',
    literal:
      '[emerg] 7939#7939: bind() to [::]:80 failed (98: Address already in use)\n[emerg] 7939#7939: still could not bind()',
    body: 'Another service on the box listens on port 80, so nginx gives up after its retries.',
    solution: 'netstat -tulnp | grep ":80" to find it; stop it or move nginx to another port.',
    symptom: 'nginx still could not bind port 80 ipv6',
  },
  {
    id: 'pub2-nginx-bind-unix-socket',
    source: 'https://github.com/XTLS/Xray-examples/issues/68',
    ecosystem: 'nginx',
    product: 'nginx',
    title: 'nginx cannot bind a unix socket that a previous run left behind',
    literal:
      'nginx: [emerg] bind() to unix:/dev/shm/default.sock failed (98: Address already in use)\nnginx: [emerg] bind() to unix:/dev/shm/h2c.sock failed (98: Address already in use)',
    body: 'The socket files in /dev/shm remain after an unclean stop; bind() on an existing socket path fails.',
    solution: 'Remove the stale socket files (rm /dev/shm/*.sock) before starting nginx, or reboot.',
    symptom: 'nginx unix socket in dev shm address already in use',
  },
];
