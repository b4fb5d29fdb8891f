/**
 * Public error literals from Linux package managers and system services,
 * each with the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

/** apt repositories whose signing key is missing: the release and the wording tell them apart. */
export const APT_PUBKEY_CASES: PublicCase[] = [
  {
    id: 'pub2-apt-nopubkey-webmin-sarge',
    source: 'https://github.com/arakasi72/rtinst/issues/536',
    ecosystem: 'linux',
    product: 'apt',
    title: 'Webmin repository (sarge) not signed: NO_PUBKEY',
    literal:
      "W: GPG error: http://download.webmin.com/download/repository sarge Release: The following signatures could not be verified because the public key is not available: NO_PUBKEY D97A3AE911F63C51\nE: The repository 'http://download.webmin.com/download/repository sarge Release' is not signed.",
    body: 'Webmin rotated its signing key; the old key in the keyring no longer verifies the Release file.',
    solution: 'Import the current Webmin key (curl the key and add it under /etc/apt/keyrings with signed-by).',
    symptom: 'webmin apt repository sarge not signed public key',
  },
  {
    id: 'pub2-apt-nopubkey-packagecloud-focal',
    source: 'https://github.com/pufferpanel/pufferpanel/issues/915',
    ecosystem: 'linux',
    product: 'apt',
    title: 'pufferpanel packagecloud repo on Ubuntu focal: key not available',
    literal:
      "Err:9 https://packagecloud.io/pufferpanel/pufferd/ubuntu focal InRelease\n  The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 17442097ED9CCF17\nReading package lists... Done",
    body: 'The packagecloud repository was added without importing its GPG key.',
    solution: 'Run the packagecloud setup script (it installs the key) or import the key for the repo.',
    symptom: 'pufferpanel packagecloud focal inrelease no pubkey',
  },
  {
    id: 'pub2-apt-nopubkey-riot-signature-verification',
    source: 'https://github.com/onionshare/onionshare/issues/972',
    ecosystem: 'linux',
    product: 'apt',
    title: 'add-apt-repository fails because another repo (riot.im) lacks its key',
    literal:
      "W: An error occurred during the signature verification. The repository is not updated and the previous index files will be used. GPG error: https://packages.riot.im/debian bionic InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY C2850B265AC085BD",
    body: 'An unrelated third-party repository in sources.list.d has no key, which makes apt update report errors.',
    solution: 'Import that repository key (apt-key adv --recv-keys C2850B265AC085BD) or remove the repository.',
    symptom: 'signature verification error previous index files riot repository bionic',
  },
  {
    id: 'pub2-apt-nopubkey-ppa-jammy-debian',
    source: 'https://github.com/yuezk/GlobalProtect-openconnect/issues/104',
    ecosystem: 'linux',
    product: 'apt',
    title: 'Ubuntu PPA added on Debian: jammy InRelease not signed',
    literal:
      "W: GPG error: http://ppa.launchpad.net/yuezk/globalprotect-openconnect/ubuntu jammy InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 53FC26B43838D761\nE: The repository 'http://ppa.launchpad.net/yuezk/globalprotect-openconnect/ubuntu jammy InRelease' is not signed.\nN: Updating from such a repository can't be done securely, and is therefore disabled by default.",
    body: 'add-apt-repository on Debian does not fetch Launchpad keys, and the PPA targets Ubuntu releases.',
    solution: 'Use the Debian packages (OBS repository) instead of the Ubuntu PPA.',
    symptom: 'launchpad ppa on debian jammy not signed updating disabled by default',
  },
  {
    id: 'pub2-apt-nopubkey-hardy-gnewsense',
    source: 'https://github.com/quodlibet/quodlibet/issues/901',
    ecosystem: 'linux',
    product: 'apt',
    title: 'Old PPA on gNewSense: NO_PUBKEY and "you may want to run apt-get update"',
    literal:
      "W: GPG error: http://ppa.launchpad.net hardy Release: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 026382005806C7C4\nW: You may want to run apt-get update to correct these problems",
    body: 'The PPA line was added by hand without importing the PPA signing key.',
    solution: 'apt-key adv --keyserver keyserver.ubuntu.com --recv-keys 026382005806C7C4, then apt-get update.',
    symptom: 'quodlibet ppa hardy public key not available gnewsense',
  },
  {
    id: 'pub2-apt-nopubkey-xenial-potentially-dangerous',
    source: 'https://github.com/teejee2008/timeshift/issues/185',
    ecosystem: 'linux',
    product: 'apt',
    title: 'timeshift PPA on xenial: key imported but apt still says not signed',
    literal:
      "W: GPG error: http://ppa.launchpad.net/teejee2008/ppa/ubuntu xenial InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY B5B116B72D0F61F0\nW: The repository 'http://ppa.launchpad.net/teejee2008/ppa/ubuntu xenial InRelease' is not signed.\nN: Data from such a repository can't be authenticated and is therefore potentially dangerous to use.",
    body: 'add-apt-repository imported the short key id into a temporary keyring, not the one apt reads; the long id differs.',
    solution: 'apt-key adv --keyserver hkp://keyserver.ubuntu.com:80 --recv-keys B5B116B72D0F61F0',
    symptom: 'timeshift ppa xenial data cannot be authenticated potentially dangerous',
  },
  {
    id: 'pub2-apt-nopubkey-mongodb-cran-ec2',
    source: 'https://github.com/chapmanb/bcbb/issues/1',
    ecosystem: 'linux',
    product: 'apt',
    title: 'Provisioning EC2 with fabric: mongodb and CRAN repos missing GPG keys',
    literal:
      "[ec2-204-236-204-229.compute-1.amazonaws.com] err: W: GPG error: http://downloads.mongodb.org 10.4 Release: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 9ECBEC467F0CEB10",
    body: 'The provisioning script adds the repositories but never imports their keys.',
    solution: 'Import the MongoDB and CRAN keys in the script before apt-get update.',
    symptom: 'fabric ec2 provisioning mongodb repo gpg error release',
  },
];
