/**
 * Public TLS and certificate error literals (Go crypto/x509, OpenSSL,
 * Python ssl, Java PKIX), each with the address of the thread it was
 * posted in.
 */
import type { PublicCase } from './public-case.ts';

export const TLS_CASES: PublicCase[] = [
  {
    id: 'pub2-go-smtp-cert-expired',
    source: 'https://github.com/emersion/go-smtp/issues/63',
    ecosystem: 'go',
    product: 'go-smtp',
    title: 'go-smtp client logs an expired or not yet valid certificate',
    literal: '2019/09/14 00:52:08 x509: certificate has expired or is not yet valid',
    body: 'The SMTP server presents an expired certificate during STARTTLS, or the client clock is wrong.',
    solution: 'Check the client clock, then renew the mail server certificate.',
    symptom: 'smtp client in go complains mail server certificate expired',
  },
  {
    id: 'pub2-tls-client-cert-expired-current-time',
    source: 'https://github.com/FlorianREGAZ/Python-Tls-Client/issues/71',
    ecosystem: 'python',
    product: 'tls-client',
    title: 'tls-client reports the current time is after the certificate expiry',
    literal: 'x509: certificate has expired or is not yet valid: current time 2023-05-18 is after 2023-04-23T06:01:48Z',
    body: 'The Go-based TLS library behind the Python wrapper verifies the server certificate, which expired.',
    solution: 'The server must renew its certificate; only for testing, disable verification in the session.',
    symptom: 'python tls client certificate expired current time is after',
  },
  {
    id: 'pub2-dnscrypt-doh-cert-clock',
    source: 'https://github.com/DNSCrypt/dnscrypt-proxy/issues/324',
    ecosystem: 'go',
    product: 'dnscrypt-proxy',
    title: 'dnscrypt-proxy on a Raspberry Pi: DoH certificate not yet valid because the clock is wrong',
    literal:
      '[2017-11-28 17:25:51] [ERROR] Get https://dns.cloudflare.com/dns-query?body=XXX&random_padding=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX: x509: certificate has expired or is not yet valid',
    body: 'The Pi has no real-time clock and booted with a date months in the past, before the certificate validity.',
    solution: 'Set the clock (NTP, or fake-hwclock) before dnscrypt-proxy starts.',
    symptom: 'raspberry pi dns over https certificate not yet valid wrong date',
  },
  {
    id: 'pub2-go-speedtest-cert-expired',
    source: 'https://github.com/sivel/go-speedtest/issues/6',
    ecosystem: 'go',
    product: 'go-speedtest',
    title: 'go-speedtest cannot fetch the speedtest.net configuration: certificate expired',
    literal:
      'Error retrieving Speedtest.net configuration: Get https://www.speedtest.net/speedtest-config.php: x509: certificate has expired or is not yet valid.',
    body: 'Either the speedtest.net certificate is invalid or the local CA certificates are outdated.',
    solution: 'Update the ca-certificates package and check the system clock.',
    symptom: 'speedtest cli go certificate expired retrieving configuration',
  },
  {
    id: 'pub2-wxbot-openai-cert-expired-win7',
    source: 'https://github.com/yqchilde/wxbot/issues/75',
    ecosystem: 'go',
    product: 'wxbot',
    title: 'WeChat bot on Windows 7 cannot call the OpenAI API: certificate expired',
    literal:
      'Err：Post "https://api.openai.com/v1/chat/completions": x509: certificate has expired or is not yet valid: ',
    body: 'Windows 7 has an outdated root store; the chain to the API certificate goes through a root it lacks or holds expired.',
    solution: 'Update the Windows root certificates (or run on a supported OS).',
    symptom: 'windows 7 go program openai api certificate expired',
  },
];

export const JAVA_PKIX_CASES: PublicCase[] = [
  {
    id: 'pub2-pkix-cytoscape-stringapp',
    source: 'https://github.com/RBVI/stringApp/issues/47',
    ecosystem: 'java',
    product: 'stringapp',
    title: 'Cytoscape stringApp on OpenJDK 17 cannot verify the STRING server certificate',
    literal:
      'PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
    body: 'The JDK cacerts does not hold the root of the server chain (or a proxy re-signs the traffic).',
    solution: 'Import the missing CA into the JDK cacerts with keytool, or run on a JDK with a current trust store.',
    symptom: 'cytoscape plugin certification path to requested target openjdk 17',
  },
  {
    id: 'pub2-pkix-spring-resttemplate-post',
    source: 'https://github.com/skshukla/tlsdemo/issues/2',
    ecosystem: 'java',
    product: 'spring-web',
    title: 'Spring RestTemplate POST to a service with a private CA fails PKIX',
    literal:
      'org.springframework.web.client.ResourceAccessException: I/O error on POST request for "https://api.vaultspay.com:8001/api/v1/saas-login": PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
    body: 'The server certificate is signed by a CA the client JVM does not trust.',
    solution: 'Give the client a truststore holding that CA (server.ssl.trust-store / javax.net.ssl.trustStore).',
    symptom: 'spring boot resttemplate post i/o error pkix between microservices',
  },
  {
    id: 'pub2-pkix-retrofit-main',
    source: 'https://github.com/lysine-dev/retrofit/issues/745',
    ecosystem: 'java',
    product: 'retrofit',
    title: 'Retrofit call fails with RetrofitError PKIX path building failed',
    literal:
      'Exception in thread "main" retrofit.RetrofitError: sun.security.validator.ValidatorException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target\n\tat retrofit.RetrofitError.networkError(RetrofitError.java:27)',
    body: 'The JVM (Java 8 update 40 here) lacks the CA of the API it calls.',
    solution: 'Update the JDK or import the CA into cacerts.',
    symptom: 'retrofit network error validator exception certification path',
  },
  {
    id: 'pub2-pkix-gradle-download-task',
    source: 'https://github.com/michel-kraemer/gradle-download-task/issues/224',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Gradle download task fails PKIX when fetching a file',
    literal:
      "* What went wrong:\nExecution failed for task ':app:copyWords'.\n> sun.security.validator.ValidatorException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target",
    body: 'The Gradle JVM does not trust the server the download task fetches from (often a corporate proxy CA).',
    solution: 'Import the proxy or server CA into the cacerts of the JDK Gradle runs on (org.gradle.java.home).',
    symptom: 'gradle execution failed for task download pkix validator',
  },
  {
    id: 'pub2-pkix-jicofo-xmpp',
    source: 'https://github.com/jitsi/jitsi-meet/issues/2117',
    ecosystem: 'java',
    product: 'jicofo',
    title: 'Jicofo cannot log in to Prosody: XMPP certificate not trusted',
    literal:
      'Jicofo 2019-10-25 23:46:04.128 SEVERE: [16] org.jitsi.impl.protocol.xmpp.XmppProtocolProvider.doConnect().309 Failed to connect/login: javax.net.ssl.SSLHandshakeException: sun.security.validator.ValidatorException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
    body: 'Prosody serves a self-signed certificate for the auth domain that the Jicofo JVM does not trust.',
    solution:
      'Add the Prosody certificate to the Java truststore Jicofo uses (or install it with prosodyctl cert import), then restart Jicofo.',
    symptom: 'jitsi jicofo failed to connect login prosody certificate',
  },
];

export const PYTHON_SSL_CASES: PublicCase[] = [
  {
    id: 'pub2-py-sslcertverificationerror-local-issuer',
    source: 'https://github.com/openssl/openssl/issues/20037',
    ecosystem: 'python',
    product: 'python-ssl',
    title: 'Python ssl cannot find the CA that issued the server certificate',
    literal:
      'ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:997)',
    body: 'The Python build has no usable CA store (python.org macOS builds, custom OpenSSL) or a proxy re-signs the traffic.',
    solution: 'Point SSL_CERT_FILE at a CA bundle (certifi), or run Install Certificates.command on macOS.',
    symptom: 'python script certificate verify failed local issuer',
  },
  {
    id: 'pub2-py-urlopen-error-cert-verify',
    source: 'https://github.com/itsmehacker/CardPwn/issues/8',
    ecosystem: 'python',
    product: 'urllib',
    title: 'urllib.request.urlopen fails certificate verification',
    literal:
      'urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1129)>',
    body: 'urllib uses the interpreter default CA store, which is empty or outdated.',
    solution: 'Install certificates for the interpreter or pass an ssl context built from certifi.where().',
    symptom: 'urlopen error certificate verify failed',
  },
  {
    id: 'pub2-pip-retrying-sslcertverificationerror',
    source: 'https://github.com/pypa/pip/issues/8200',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip behind a corporate proxy: retries fail with SSLCertVerificationError',
    literal:
      "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1076)'))': /packages/94/34/9a2118bb4c4ba176075179385e06226b5225be338ba7e2216283e767df64/pyrfc-0.1.2.tar.gz",
    body: 'A TLS-inspecting proxy re-signs files.pythonhosted.org with a corporate CA pip does not trust.',
    solution: 'pip config set global.cert with the corporate CA bundle (or use the truststore feature).',
    symptom: 'pip retrying connection broken by ssl error corporate proxy',
  },
];
