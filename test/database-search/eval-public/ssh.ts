/**
 * Public error literals from ssh and remote access, each with the address
 * of the thread it was posted in. The host, the port and refused against
 * timed out tell them apart.
 */
import type { PublicCase } from './public-case.ts';

export const SSH_CASES: PublicCase[] = [
  {
    id: 'pub2-ssh-refused-tools-server', source: 'https://github.com/wpoa/open-access-media-importer/issues/80', ecosystem: 'ssh', product: 'openssh',
    title: 'ssh to the project server refused since yesterday: sshd down',
    literal: 'ssh: connect to host tools.mi.ur.de port 22: Connection refused',
    body: 'The server is up but sshd is not listening (stopped or crashed after an update).',
    solution: 'Restart sshd through the console of the machine; check its config with sshd -t.',
    symptom: 'ssh to project server connection refused sshd stopped',
  },
  {
    id: 'pub2-ssh-refused-github-22', source: 'https://github.com/X-lab2017/dase-2024-autumn/issues/7', ecosystem: 'git', product: 'openssh',
    title: 'ssh -T git@github.com refused on port 22 (network blocks it)',
    literal: 'ssh: connect to host github.com port 22: Connection refused',
    body: 'The campus network blocks outgoing port 22.',
    solution: 'Use ssh.github.com on port 443 in ~/.ssh/config (Host github.com, Hostname ssh.github.com, Port 443).',
    symptom: 'ssh github port 22 refused campus network use 443',
  },
  {
    id: 'pub2-ssh-timeout-segfault-net', source: 'https://github.com/0xNullGun/SSH-KaliLinux/issues/4', ecosystem: 'ssh', product: 'openssh',
    title: 'ssh to segfault.net times out: port 22 filtered',
    literal: 'ssh: connect to host segfault.net port 22: Connection timed out',
    body: 'A firewall on the way drops packets to port 22 (nmap shows it filtered).',
    solution: 'Try another network or DNS; if port 22 is blocked, connect through a port or VPN that is not.',
    symptom: 'ssh segfault net connection timed out port filtered',
  },
  {
    id: 'pub2-ssh-operation-timed-out-iphone', source: 'https://github.com/buginux/WeChatRedEnvelop/issues/18', ecosystem: 'ssh', product: 'openssh',
    title: 'ssh root@ a jailbroken iPhone: operation timed out (not on the same LAN)',
    literal: 'ssh: connect to host 10.26.162.117 port 22: Operation timed out',
    body: 'The Mac and the device are not on the same network, or OpenSSH is not installed on the device.',
    solution: 'Put both on the same Wi-Fi (or use usbmuxd/iproxy over USB) and install OpenSSH on the device.',
    symptom: 'ssh to iphone operation timed out macos',
  },
  {
    id: 'pub2-ssh-refused-xiaomi-router', source: 'https://github.com/acecilia/OpenWRTInvasion/issues/101', ecosystem: 'ssh', product: 'openwrtinvasion',
    title: 'Xiaomi router exploit: ssh refused because the exploit could not download its files',
    literal: 'ssh: connect to host 192.168.31.1 port 22: Connection refused',
    body: 'The router never started dropbear: the exploit failed to fetch its payload from GitHub over a poor connection.',
    solution: 'Serve the payload from a local server (or fix the connection) and rerun the exploit.',
    symptom: 'xiaomi router openwrt invasion ssh refused 192.168.31.1',
  },
  {
    id: 'pub2-ssh-refused-container-high-port', source: 'https://github.com/hpc-admin-sist/DockerMonitor/issues/39', ecosystem: 'ssh', product: 'dockermonitor',
    title: 'ssh into a cluster container on its mapped high port refused',
    literal: 'ssh: connect to host 10.15.89.41 port 22732: Connection refused',
    body: 'The container was recreated and its sshd no longer listens on the mapped port.',
    solution: 'Ask the admin to restart the container or its sshd, and check the port mapping.',
    symptom: 'ssh into my gpu cluster container mapped port refused',
  },
  {
    id: 'pub2-ssh-action-dial-tcp-empty-host', source: 'https://github.com/appleboy/ssh-action/issues/192', ecosystem: 'go', product: 'ssh-action',
    title: 'GitHub Action ssh deploy dials an empty host: secret name misspelled',
    literal: 'dial tcp :22: connect: connection refused',
    body: 'The workflow references secrets.SHH_HOST, which does not exist, so host is empty.',
    solution: 'Fix the secret name (secrets.SSH_HOST).',
    symptom: 'github actions ssh deploy dial tcp empty host 22',
  },
  {
    id: 'pub2-ssh-refused-ec2-vscode', source: 'https://github.com/microsoft/vscode-remote-release/issues/2091', ecosystem: 'aws', product: 'vscode-remote-ssh',
    title: 'VS Code Remote-SSH to an EC2 instance refused',
    literal: 'ssh: connect to host ec2-18-217-215-97.us-east-2.compute.amazonaws.com port 22: Connection refused',
    body: 'The instance refuses port 22: sshd is not running after a reboot, or the host name belongs to a stopped and re-addressed instance.',
    solution: 'Check the instance public DNS after restart and that sshd runs (EC2 serial console).',
    symptom: 'vscode remote ssh ec2 connection refused',
  },
  {
    id: 'pub2-plotman-ssh-myfarmer', source: 'https://github.com/ericaltendorf/plotman/issues/629', ecosystem: 'ssh', product: 'plotman',
    title: 'plotman archiving tries to ssh to the example host "myfarmer"',
    literal: 'ssh: connect to host myfarmer port 22: Connection timed out\nor connect to host myfarmer port 22: Connection refused',
    body: 'The default archive configuration rsyncs plots to a host named myfarmer.',
    solution: 'Configure the archive target for your farmer, or disable archiving in plotman.yaml.',
    symptom: 'plotman archive ssh myfarmer timed out',
  },
];
