/**
 * Public error literals from Java and JVM programs, each with the address
 * of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

/** A static initializer failed earlier; the class name tells them apart. */
export const JAVA_CLASS_INIT_CASES: PublicCase[] = [
  {
    id: 'pub2-noclassdef-pitest-randomdotorg',
    source: 'https://github.com/hcoles/pitest/issues/484',
    ecosystem: 'java',
    product: 'pitest',
    title: 'Pitest on JDK 10: RandomDotOrgSeedGenerator could not be initialized',
    literal:
      'java.lang.NoClassDefFoundError: Could not initialize class io.github.pr0methean.betterrandom.seed.RandomDotOrgSeedGenerator',
    body: 'The static initializer fails only under the mutation-testing agent on JDK 10; the first failure is not reported.',
    solution: 'Find the first ExceptionInInitializerError in the log; run on the JDK the agent supports.',
    symptom: 'pitest could not initialize class betterrandom seed generator jdk 10',
  },
  {
    id: 'pub2-noclassdef-jndiexploit-cache',
    source: 'https://github.com/feihong-cs/JNDIExploit/issues/4',
    ecosystem: 'java',
    product: 'jndiexploit',
    title: 'LDAP listener thread: com.feihong.ldap.utils.Cache not initialized on a new JDK',
    literal:
      'java.lang.NoClassDefFoundError: Could not initialize class com.feihong.ldap.utils.Cache\n        at com.feihong.ldap.template.CommandTemplate.cache(CommandTemplate.java:28)',
    body: 'The class initializer uses JDK internals that newer JDKs removed or closed.',
    solution: 'Run the tool on JDK 11 (or 8).',
    symptom: 'ldap server could not initialize cache class java version',
  },
  {
    id: 'pub2-noclassdef-vefa-validatorbuilder',
    source: 'https://github.com/anskaffelser/vefa-validator/issues/23',
    ecosystem: 'java',
    product: 'vefa-validator',
    title: 'Servlet 500: ValidatorBuilder could not be initialized',
    literal:
      'javax.servlet.ServletException: java.lang.NoClassDefFoundError: Could not initialize class no.difi.vefa.validator.ValidatorBuilder',
    body: 'A dependency of validator-core is missing from the web application classpath, so the static initializer fails.',
    solution: 'Add the missing transitive dependencies (use the dependency tree of validator-core).',
    symptom: 'tomcat http 500 could not initialize validatorbuilder',
  },
  {
    id: 'pub2-noclassdef-bamboobsc-shiro',
    source: 'https://github.com/billchen198318/bamboobsc/issues/78',
    ecosystem: 'java',
    product: 'bamboobsc',
    title: 'bambooBSC on Linux: BackgroundProgramUserUtils fails to initialize with shiro 1.4.0',
    literal:
      'java.lang.NoClassDefFoundError: Could not initialize class com.netsteadfast.greenstep.sys.BackgroundProgramUserUtils',
    body: 'shiro-all 1.4.0 in WEB-INF/lib breaks the class initializer on Linux.',
    solution: 'Replace shiro-all-1.4.0.jar with shiro-all-1.3.2.jar in the web apps and restart Tomcat.',
    symptom: 'bamboobsc tomcat linux shiro background program user utils',
  },
  {
    id: 'pub2-noclassdef-netlogo-nonlocalexit',
    source: 'https://github.com/NetLogo/NetLogo/issues/536',
    ecosystem: 'java',
    product: 'netlogo',
    title: 'NetLogo model run: NonLocalExit$ could not be initialized',
    literal:
      'java.lang.NoClassDefFoundError: Could not initialize class org.nlogo.nvm.NonLocalExit$\n at org.nlogo.nvm.CommandTask.perform(Task.scala:81)',
    body: 'An earlier error (often out of memory or a stack overflow in a deep foreach) broke the static initialization.',
    solution: 'Restart NetLogo with more memory and look for the first error in the log.',
    symptom: 'netlogo foreach could not initialize class nonlocalexit',
  },
  {
    id: 'pub2-noclassdef-x11-xtoolkit-headless',
    source: 'https://github.com/youtube/api-samples/issues/260',
    ecosystem: 'java',
    product: 'youtube-api-samples',
    title: 'OAuth sample opens a browser on a headless Linux server: XToolkit fails',
    literal: 'java.lang.NoClassDefFoundError: Could not initialize class sun.awt.X11.XToolkit',
    body: 'The sample calls Desktop.browse for the OAuth consent page; a server without a display cannot initialize AWT.',
    solution: 'Run with -Djava.awt.headless=true and print the authorization URL instead of opening a browser.',
    symptom: 'java oauth sample linux server no display x11 toolkit',
  },
  {
    id: 'pub2-noclassdef-jeesite-mybatis',
    source: 'https://github.com/thinkgem/jeesite5/issues/17',
    ecosystem: 'java',
    product: 'jeesite',
    title: 'JeeSite 5: obfuscated mybatis class fails to initialize',
    literal: 'Caused by: java.lang.NoClassDefFoundError: Could not initialize class com.jeesite.common.mybatis.s.x.G',
    body: 'The obfuscated licence-check class fails in its static initializer (unsupported JDK or missing resources).',
    solution: 'Run on the JDK version JeeSite supports and keep its resource files on the classpath.',
    symptom: 'jeesite could not initialize class mybatis',
  },
  {
    id: 'pub2-noclassdef-adwords-services',
    source: 'https://github.com/googleads/googleads-java-lib/issues/178',
    ecosystem: 'java',
    product: 'googleads-java-lib',
    title: 'Spring Boot app: AdWordsServices could not be initialized',
    literal:
      'java.lang.NoClassDefFoundError: Could not initialize class com.google.api.ads.adwords.axis.factory.AdWordsServices',
    body: 'A conflicting dependency version (Guice or Axis) on the classpath breaks the static setup of AdWordsServices.',
    solution: 'Align the conflicting dependency versions with the ones googleads-java-lib needs (mvn dependency:tree).',
    symptom: 'adwords api java could not initialize adwordsservices',
  },
];

/** Gradle dependency resolution failures, told apart by the artifact and the configuration. */
export const GRADLE_RESOLVE_CASES: PublicCase[] = [
  {
    id: 'pub2-gradle-saxon-dom-not-found',
    source: 'https://github.com/mulesoft-labs/mule-gradle-plugin/issues/10',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Mule Gradle plugin sample: saxon-dom artifact not found',
    literal:
      "Could not resolve all dependencies for configuration ':compile'.\n> Artifact 'net.sourceforge.saxon:saxon:9.1.0.8:saxon-dom.jar' not found.",
    body: 'The saxon-dom classifier jar is only in the MuleSoft repository, which the sample does not declare.',
    solution: 'Add the MuleSoft public repository to the build repositories.',
    symptom: 'gradle mule plugin saxon dom jar not found',
  },
  {
    id: 'pub2-gradle-ktlint-fork-artipie',
    source: 'https://github.com/artipie/artipie/issues/445',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Gradle cannot find ktlint 0.37.1-fork in an Artipie Maven proxy',
    literal:
      "Execution failed for task ':ktlint'.\n> Could not resolve all files for configuration ':ktlint'.\n   > Could not find com.pinterest:ktlint:0.37.1-fork.",
    body: 'The repository serves the pom with content Gradle cannot parse, although Maven accepts it.',
    solution: 'Fixed in the repository server; meanwhile add the upstream repository.',
    symptom: 'gradle ktlint fork could not find artipie repository maven works',
  },
  {
    id: 'pub2-gradle-guava-classpath-servo',
    source: 'https://github.com/Netflix/servo/issues/167',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Fresh servo build: guava 11.0.2 jar not found for the buildscript classpath',
    literal:
      "> Could not resolve all dependencies for configuration ':classpath'.\n  > Artifact 'com.google.guava:guava:11.0.2@jar' not found.",
    body: 'The buildscript repositories do not include Maven Central for a plugin dependency.',
    solution: 'Add mavenCentral() to the buildscript repositories.',
    symptom: 'servo gradle classpath guava 11 jar not found',
  },
  {
    id: 'pub2-gradle-asm-analysis-download',
    source: 'https://github.com/tjerkw/Android-SlideExpandableListView/issues/45',
    ecosystem: 'java',
    product: 'android-gradle',
    title: 'Android build: could not download asm-analysis 4.0',
    literal:
      "> Could not download artifact 'org.ow2.asm:asm-analysis:4.0@jar'\n>       > Artifact 'org.ow2.asm:asm-analysis:4.0@jar' not found.",
    body: 'The artifact vanished from the repository the old Android plugin resolved from.',
    solution: 'Update the Android Gradle plugin version in the buildscript.',
    symptom: 'android gradle asm analysis 4.0 artifact download',
  },
  {
    id: 'pub2-gradle-commons-logging-mavenlocal',
    source: 'https://github.com/rundeck-plugins/rundeck-ec2-nodes-plugin/issues/6',
    ecosystem: 'java',
    product: 'gradle',
    title: 'mavenLocal() shadows Maven Central: commons-logging 1.0.3 jar not found',
    literal:
      "> Could not resolve all dependencies for configuration ':pluginLibs'.\n> Artifact 'commons-logging:commons-logging:1.0.3@jar' not found.",
    body: 'The local Maven repository has the pom but not the jar, and Gradle does not fall through to the next repository (GRADLE-2034).',
    solution: 'Remove mavenLocal() from the repositories.',
    symptom: 'gradle mavenlocal commons logging artifact not found rundeck',
  },
  {
    id: 'pub2-gradle-debugruntimeclasspath-artifactresolve',
    source: 'https://github.com/a914-gowtham/android-video-trimmer/issues/71',
    ecosystem: 'java',
    product: 'android-gradle',
    title: 'Adding android-video-trimmer: debugRuntimeClasspath cannot be resolved',
    literal:
      "Caused by: org.gradle.api.internal.artifacts.ivyservice.DefaultLenientConfiguration$ArtifactResolveException: Could not resolve all files for configuration ':app:debugRuntimeClasspath'.",
    body: 'The library is published on JitPack, which the project repositories do not list.',
    solution: "Add maven { url 'https://jitpack.io' } to the repositories in settings.gradle.",
    symptom: 'android video trimmer dependency debug runtime classpath jitpack',
  },
  {
    id: 'pub2-gradle-digma-extension-version',
    source: 'https://github.com/gradle/gradle/issues/30894',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Gradle looks for io.github.digma-ai:extension-version, which was never published',
    literal:
      'Could not find io.github.digma-ai:extension-version:0.8.1.\nSearched in the following locations:\n  - https://repo.maven.apache.org/maven2/io/github/digma-ai/extension-version/0.8.1/extension-version-0.8.1.pom',
    body: 'digma-otel-agent-extension declares a dependency on an artifact missing from Maven Central.',
    solution: 'Exclude the missing transitive dependency (or ask the publisher to fix the pom).',
    symptom: 'gradle digma otel agent extension transitive dependency missing',
  },
  {
    id: 'pub2-gradle-unity-userpackagestoquery',
    source: 'https://github.com/googlesamples/unity-jar-resolver/issues/124',
    ecosystem: 'java',
    product: 'unity-jar-resolver',
    title: 'Unity Jar Resolver: ResolveException for configuration userPackagesToQuery1',
    literal:
      "Caused by: org.gradle.api.artifacts.ResolveException: Could not resolve all dependencies for configuration ':userPackagesToQuery1'.",
    body: 'The resolver queries Android packages from repositories the machine cannot reach (or the SDK repository is missing).',
    solution: 'Install the Android support repositories in the SDK manager and make the Maven repositories reachable.',
    symptom: 'unity jar resolver cannot resolve dependencies android',
  },
  {
    id: 'pub2-gradle-offline-no-cached-agp',
    source: 'https://github.com/adonespitogo/AdoBot/issues/37',
    ecosystem: 'java',
    product: 'android-gradle',
    title: 'Android Studio offline mode: no cached Android Gradle plugin 3.2.0',
    literal:
      'org.gradle.internal.resolve.ModuleVersionResolveException: No cached version of com.android.tools.build:gradle:3.2.0 available for offline mode.',
    body: 'Gradle is in offline mode and the plugin version was never downloaded.',
    solution: 'Turn offline mode off once (or run with network) so Gradle caches the plugin.',
    symptom: 'android studio offline mode gradle plugin 3.2 no cached version',
  },
  {
    id: 'pub2-gradle-could-not-parse-pom-gdx2d',
    source: 'https://github.com/ISC-HEI/gdx2d/issues/119',
    ecosystem: 'java',
    product: 'gradle',
    title: 'gdx2d-desktop from Maven Central: parent pom gdx2d-parent 1.0 missing',
    literal:
      '> Could not parse POM https://repo1.maven.org/maven2/ch/hevs/gdx2d/gdx2d-desktop/1.2.0/gdx2d-desktop-1.2.0.pom\n         > Could not resolve ch.hevs.gdx2d:gdx2d-lib:1.0.',
    body: 'The published pom refers to a parent pom that was never deployed.',
    solution: 'Publish the parent pom (fixed upstream) or depend on the jars directly.',
    symptom: 'gdx2d maven dependency could not parse pom parent',
  },
];
