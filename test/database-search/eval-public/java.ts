/**
 * Public error literals from Java and JVM programs, each with the address
 * of the thread it was posted in.
 */
import type { PublicCase } from '../eval-cases-public.ts';

/** A static initializer failed earlier; the class name tells them apart. */
export const JAVA_CLASS_INIT_CASES: PublicCase[] = [
  {
    id: 'pub2-noclassdef-pitest-randomdotorg', source: 'https://github.com/hcoles/pitest/issues/484', ecosystem: 'java', product: 'pitest',
    title: 'Pitest on JDK 10: RandomDotOrgSeedGenerator could not be initialized',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class io.github.pr0methean.betterrandom.seed.RandomDotOrgSeedGenerator',
    body: 'The static initializer fails only under the mutation-testing agent on JDK 10; the first failure is not reported.',
    solution: 'Find the first ExceptionInInitializerError in the log; run on the JDK the agent supports.',
    symptom: 'pitest could not initialize class betterrandom seed generator jdk 10',
  },
  {
    id: 'pub2-noclassdef-jndiexploit-cache', source: 'https://github.com/feihong-cs/JNDIExploit/issues/4', ecosystem: 'java', product: 'jndiexploit',
    title: 'LDAP listener thread: com.feihong.ldap.utils.Cache not initialized on a new JDK',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class com.feihong.ldap.utils.Cache\n        at com.feihong.ldap.template.CommandTemplate.cache(CommandTemplate.java:28)',
    body: 'The class initializer uses JDK internals that newer JDKs removed or closed.',
    solution: 'Run the tool on JDK 11 (or 8).',
    symptom: 'ldap server could not initialize cache class java version',
  },
  {
    id: 'pub2-noclassdef-vefa-validatorbuilder', source: 'https://github.com/anskaffelser/vefa-validator/issues/23', ecosystem: 'java', product: 'vefa-validator',
    title: 'Servlet 500: ValidatorBuilder could not be initialized',
    literal: 'javax.servlet.ServletException: java.lang.NoClassDefFoundError: Could not initialize class no.difi.vefa.validator.ValidatorBuilder',
    body: 'A dependency of validator-core is missing from the web application classpath, so the static initializer fails.',
    solution: 'Add the missing transitive dependencies (use the dependency tree of validator-core).',
    symptom: 'tomcat http 500 could not initialize validatorbuilder',
  },
  {
    id: 'pub2-noclassdef-bamboobsc-shiro', source: 'https://github.com/billchen198318/bamboobsc/issues/78', ecosystem: 'java', product: 'bamboobsc',
    title: 'bambooBSC on Linux: BackgroundProgramUserUtils fails to initialize with shiro 1.4.0',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class com.netsteadfast.greenstep.sys.BackgroundProgramUserUtils',
    body: 'shiro-all 1.4.0 in WEB-INF/lib breaks the class initializer on Linux.',
    solution: 'Replace shiro-all-1.4.0.jar with shiro-all-1.3.2.jar in the web apps and restart Tomcat.',
    symptom: 'bamboobsc tomcat linux shiro background program user utils',
  },
  {
    id: 'pub2-noclassdef-netlogo-nonlocalexit', source: 'https://github.com/NetLogo/NetLogo/issues/536', ecosystem: 'java', product: 'netlogo',
    title: 'NetLogo model run: NonLocalExit$ could not be initialized',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class org.nlogo.nvm.NonLocalExit$\n at org.nlogo.nvm.CommandTask.perform(Task.scala:81)',
    body: 'An earlier error (often out of memory or a stack overflow in a deep foreach) broke the static initialization.',
    solution: 'Restart NetLogo with more memory and look for the first error in the log.',
    symptom: 'netlogo foreach could not initialize class nonlocalexit',
  },
  {
    id: 'pub2-noclassdef-x11-xtoolkit-headless', source: 'https://github.com/youtube/api-samples/issues/260', ecosystem: 'java', product: 'youtube-api-samples',
    title: 'OAuth sample opens a browser on a headless Linux server: XToolkit fails',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class sun.awt.X11.XToolkit',
    body: 'The sample calls Desktop.browse for the OAuth consent page; a server without a display cannot initialize AWT.',
    solution: 'Run with -Djava.awt.headless=true and print the authorization URL instead of opening a browser.',
    symptom: 'java oauth sample linux server no display x11 toolkit',
  },
  {
    id: 'pub2-noclassdef-jeesite-mybatis', source: 'https://github.com/thinkgem/jeesite5/issues/17', ecosystem: 'java', product: 'jeesite',
    title: 'JeeSite 5: obfuscated mybatis class fails to initialize',
    literal: 'Caused by: java.lang.NoClassDefFoundError: Could not initialize class com.jeesite.common.mybatis.s.x.G',
    body: 'The obfuscated licence-check class fails in its static initializer (unsupported JDK or missing resources).',
    solution: 'Run on the JDK version JeeSite supports and keep its resource files on the classpath.',
    symptom: 'jeesite could not initialize class mybatis',
  },
  {
    id: 'pub2-noclassdef-adwords-services', source: 'https://github.com/googleads/googleads-java-lib/issues/178', ecosystem: 'java', product: 'googleads-java-lib',
    title: 'Spring Boot app: AdWordsServices could not be initialized',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class com.google.api.ads.adwords.axis.factory.AdWordsServices',
    body: 'A conflicting dependency version (Guice or Axis) on the classpath breaks the static setup of AdWordsServices.',
    solution: 'Align the conflicting dependency versions with the ones googleads-java-lib needs (mvn dependency:tree).',
    symptom: 'adwords api java could not initialize adwordsservices',
  },
];
