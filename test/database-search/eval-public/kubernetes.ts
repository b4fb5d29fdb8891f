/**
 * Public error literals from Kubernetes and its tools, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const KUBERNETES_CASES: PublicCase[] = [
  {
    id: 'pub2-k8s-forbidden-pods-cluster-scope',
    source: 'https://github.com/kubeguard/guard/issues/352',
    ecosystem: 'kubernetes',
    product: 'guard',
    title: 'Guard webhook user cannot list pods in any namespace',
    literal:
      'Error from server (Forbidden): pods is forbidden: User "vesurbag" cannot list resource "pods" in API group "" at the cluster scope',
    body: 'The authentication webhook works but no RBAC binding grants the authenticated user anything.',
    solution: 'Bind the user (or its group) to a ClusterRole such as view with a ClusterRoleBinding.',
    symptom: 'kubectl get pods all namespaces forbidden for webhook authenticated user',
  },
  {
    id: 'pub2-kubectl-tree-forbidden-crd',
    source: 'https://github.com/ahmetb/kubectl-tree/issues/30',
    ecosystem: 'kubernetes',
    product: 'kubectl-tree',
    title: 'kubectl tree aborts when one custom resource type is forbidden',
    literal:
      'Error: error while querying api objects: listing resources failed (monitoring.kiali.io/v1alpha1, Resource=monitoringdashboards): monitoringdashboards.monitoring.kiali.io is forbidden: User "developer" cannot list resource "monitoringdashboards" in API group "monitoring.kiali.io" in the namespace "grafanaoperator"',
    body: 'The plugin lists every API resource type and fails on the first it may not list.',
    solution: 'Grant list on that resource, or use a plugin version that skips forbidden types.',
    symptom: 'kubectl tree plugin fails listing kiali monitoringdashboards forbidden',
  },
  {
    id: 'pub2-capi-manager-configmaps-forbidden',
    source: 'https://github.com/kubernetes-sigs/cluster-api/issues/1600',
    ecosystem: 'kubernetes',
    product: 'cluster-api',
    title: 'Cluster API manager cannot list ConfigMaps',
    literal:
      'Failed to list *v1.ConfigMap: configmaps is forbidden: User "system:serviceaccount:capi-system:default" cannot list resource "configmaps" in API group "" at the cluster scope',
    body: 'The controller watches ConfigMaps cluster-wide but its ClusterRole lacks the rule.',
    solution: 'Add get/list/watch on configmaps to the manager ClusterRole (kubebuilder RBAC marker).',
    symptom: 'cluster api controller service account configmaps forbidden',
  },
  {
    id: 'pub2-minikube-scheduler-statefulsets-forbidden',
    source: 'https://github.com/kubernetes/minikube/issues/5569',
    ecosystem: 'kubernetes',
    product: 'minikube',
    title: 'kube-scheduler logs forbidden errors while the API server starts',
    literal:
      'E1008 16:46:15.978511       1 reflector.go:123] k8s.io/client-go/informers/factory.go:134: Failed to list *v1.StatefulSet: statefulsets.apps is forbidden: User "system:kube-scheduler" cannot list resource "statefulsets" in API group "apps" at the cluster scope',
    body: 'During control-plane bootstrap the scheduler starts before its RBAC bindings exist; the errors stop once they do.',
    solution:
      'Usually harmless at startup; if they persist, the scheduler credentials or bootstrap RBAC are wrong: recreate the cluster.',
    symptom: 'minikube scheduler cannot list statefulsets forbidden at startup',
  },
  {
    id: 'pub2-dashboard-default-sa-configmaps',
    source: 'https://github.com/sguyennet/terraform-vsphere-kubespray/issues/9',
    ecosystem: 'kubernetes',
    product: 'kubernetes-dashboard',
    title: 'Dashboard via proxy shows forbidden for the default service account',
    literal:
      'configmaps is forbidden: User "system:serviceaccount:default:default" cannot list resource "configmaps" in API group "" in the namespace "default"',
    body: 'Signing in to the dashboard with the default service account token gives it no permissions.',
    solution: 'Create a dedicated admin service account with a ClusterRoleBinding and sign in with its token.',
    symptom: 'kubernetes dashboard default service account forbidden everywhere',
  },
  {
    id: 'pub2-kubectl-forbidden-old-rbac-message',
    source: 'https://github.com/kubernetes/kubernetes/issues/26909',
    ecosystem: 'kubernetes',
    product: 'kubectl',
    title: 'kubectl forbidden message for a user with no RBAC permissions',
    literal: 'Error from server (Forbidden): User "sally" cannot list pods in the namespace "default". (get pods)',
    body: 'The user authenticates but has no Role or RoleBinding in the namespace.',
    solution: 'Create a RoleBinding for the user in the namespace to a role that allows listing pods.',
    symptom: 'user cannot list pods in default namespace rbac',
  },
  {
    id: 'pub2-minikube-scheduler-pv-forbidden',
    source: 'https://github.com/kubernetes/minikube/issues/6680',
    ecosystem: 'kubernetes',
    product: 'minikube',
    title: 'minikube scheduler cannot list persistent volumes',
    literal:
      'E0219 09:21:26.007392       1 reflector.go:153] k8s.io/client-go/informers/factory.go:135: Failed to list *v1.PersistentVolume: persistentvolumes is forbidden: User "system:kube-scheduler" cannot list resource "persistentvolumes" in API group "" at the cluster scope',
    body: 'Seen in minikube logs while diagnosing another failure; the scheduler RBAC is not ready yet.',
    solution: 'Wait for the control plane to settle; delete and recreate the minikube cluster if they persist.',
    symptom: 'kube-scheduler persistentvolumes forbidden in minikube logs',
  },
  {
    id: 'pub2-minikube-scheduler-pdb-forbidden',
    source: 'https://github.com/kubernetes/minikube/issues/5433',
    ecosystem: 'kubernetes',
    product: 'minikube',
    title: 'Scheduler cannot list PodDisruptionBudgets after upgrading to Kubernetes 1.16',
    literal:
      'E0922 21:12:21.376110       1 reflector.go:123] k8s.io/client-go/informers/factory.go:134: Failed to list *v1beta1.PodDisruptionBudget: poddisruptionbudgets.policy is forbidden: User "system:kube-scheduler" cannot list resource "poddisruptionbudgets" in API group "policy" at the cluster scope',
    body: 'With Kubernetes 1.16 the quickstart kubectl run no longer creates a deployment; the scheduler errors in the logs are bootstrap noise.',
    solution: 'Use kubectl create deployment instead of kubectl run for the quickstart.',
    symptom: 'kubernetes 1.16 scheduler poddisruptionbudgets policy forbidden',
  },
];

export const KUBECTL_CONNECTION_CASES: PublicCase[] = [
  {
    id: 'pub2-kubectl-localhost-8080-refused',
    source: 'https://github.com/opsnull/follow-me-install-kubernetes-cluster/issues/510',
    ecosystem: 'kubernetes',
    product: 'kubectl',
    title: 'kubectl falls back to localhost:8080 because it has no kubeconfig',
    literal: 'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
    body: 'With no ~/.kube/config (or KUBECONFIG) kubectl dials the insecure default localhost:8080, where nothing listens.',
    solution: 'Copy the admin kubeconfig to ~/.kube/config (or export KUBECONFIG) on the machine running kubectl.',
    symptom: 'kubectl tries localhost 8080 instead of my cluster, missing kubeconfig',
  },
  {
    id: 'pub2-kubectl-apiserver-6443-refused',
    source: 'https://github.com/liumiaocn/easypack/issues/7',
    ecosystem: 'kubernetes',
    product: 'kube-apiserver',
    title: 'kubectl cannot reach the API server on 6443: apiserver not running',
    literal: 'The connection to the server 192.168.0.3:6443 was refused - did you specify the right host or port?',
    body: 'The kubeconfig points at the right master, but kube-apiserver failed to start on it.',
    solution: 'Check systemctl status kube-apiserver (or the static pod and kubelet logs) and fix what keeps it down.',
    symptom: 'kube apiserver port 6443 connection refused from kubectl',
  },
  {
    id: 'pub2-curl-7-localhost-8080',
    source: 'https://github.com/QT-DevOps/DevOpsIssues/issues/82',
    ecosystem: 'node',
    product: 'curl',
    title: 'curl to a Node hello server on localhost:8080 is refused',
    literal: 'curl: (7) Failed to connect to localhost port 8080: Connection refused',
    body: 'The script prints that it listens, but it bound another address (or exited) so nothing accepts on 8080.',
    solution: 'Keep the server running and listen on 0.0.0.0 (or the address curl uses); check with ss -ltnp.',
    symptom: 'curl failed to connect localhost 8080 connection refused node server',
  },
];

/** Image pulls that name a tag or digest the registry does not have. */
export const IMAGE_PULL_CASES: PublicCase[] = [
  {
    id: 'pub2-k8s-imagepullbackoff-drainnode-rc9',
    source: 'https://github.com/mattmattox/drain-node-on-crash/issues/7',
    ecosystem: 'kubernetes',
    product: 'drain-node-on-crash',
    title: 'drain-node leader image tag v1.0-rc9 was never pushed',
    literal:
      'ImagePullBackOff: Back-off pulling image "drainnode/leader:v1.0-rc9"\nErrImagePull: rpc error: code = Unknown desc = Error response from daemon: manifest for drainnode/leader:v1.0-rc9 not found: manifest unknown: manifest unknown',
    body: 'The chart references a release candidate tag that does not exist on Docker Hub.',
    solution: 'Use the chart release that references a published tag (v1.0).',
    symptom: 'drain node leader image back-off pulling tag missing',
  },
  {
    id: 'pub2-docker-pull-openwrt-proxy-manifest',
    source: 'https://github.com/ciiiii/cloudflare-docker-proxy/issues/90',
    ecosystem: 'docker',
    product: 'cloudflare-docker-proxy',
    title: 'Pulling openwrt:86_64 through a Cloudflare Docker proxy: manifest unknown',
    literal:
      'Error response from daemon: manifest for docker.14790897.xyz/14790897/openwrt:86_64 not found: manifest unknown: manifest unknown',
    body: 'The upstream image tag is broken on Docker Hub itself, so the proxy passes the error through.',
    solution: 'Pick a tag that exists upstream; the proxy is not at fault.',
    symptom: 'docker proxy cloudflare worker openwrt image manifest unknown',
  },
  {
    id: 'pub2-k8s-failed-pull-k8s-kubectl-tag',
    source: 'https://github.com/lachie83/k8s-kubectl/issues/157',
    ecosystem: 'kubernetes',
    product: 'k8s-kubectl',
    title: 'k8s-kubectl image v1.18.20 missing because its build failed',
    literal:
      'Failed to pull image "lachlanevenson/k8s-kubectl:v1.18.20": rpc error: code = Unknown desc = Error response from daemon: manifest for lachlanevenson/k8s-kubectl:v1.18.20 not found: manifest unknown: manifest unknown',
    body: 'The CI build for that tag failed on one platform, so no manifest was pushed.',
    solution: 'Wait for the rebuilt tag (or use another version).',
    symptom: 'lachlanevenson kubectl image tag not found pod',
  },
  {
    id: 'pub2-ghcr-devcontainers-manifest-unknown',
    source: 'https://github.com/devcontainers/template-starter/issues/50',
    ecosystem: 'docker',
    product: 'devcontainers',
    title: 'docker pull of the template-starter example image from ghcr.io: manifest unknown',
    literal:
      'PS C:\\Users\\maste> docker pull ghcr.io/devcontainers/color:latest\nError response from daemon: manifest unknown',
    body: 'The example template is published as an OCI template artifact, not as a container image with a latest tag.',
    solution: 'Use the template through the devcontainer CLI or VS Code, not docker pull.',
    symptom: 'ghcr devcontainers color image pull manifest unknown',
  },
  {
    id: 'pub2-docker-pull-dockfish-no-latest',
    source: 'https://github.com/ivangabriele/dockfish/issues/13',
    ecosystem: 'docker',
    product: 'docker',
    title: 'docker pull without a tag fails: image has no latest tag',
    literal:
      'docker pull ivangabriele/dockfish\nUsing default tag: latest\nError response from daemon: manifest for ivangabriele/dockfish:latest not found: manifest unknown: manifest unknown',
    body: 'The repository only publishes versioned tags; docker pull defaults to latest.',
    solution: 'Pull an existing tag explicitly (ivangabriele/dockfish:15).',
    symptom: 'dockfish image pull default tag latest does not exist',
  },
  {
    id: 'pub2-envoy-build-manifest-latest',
    source: 'https://github.com/envoyproxy/envoy/issues/10785',
    ecosystem: 'docker',
    product: 'envoy',
    title: 'envoyproxy/envoy:latest disappeared from Docker Hub',
    literal: 'failed to build: manifest for envoyproxy/envoy:latest not found: manifest unknown: manifest unknown',
    body: 'Envoy stopped publishing the latest tag; builds FROM envoyproxy/envoy without a tag break.',
    solution: 'Use a versioned tag such as envoyproxy/envoy:v1.14-latest.',
    symptom: 'dockerfile from envoyproxy envoy latest manifest missing',
  },
  {
    id: 'pub2-aks-failed-pull-latest-not-pushed',
    source: 'https://github.com/NileshGule/AKS-learning-series/issues/6',
    ecosystem: 'kubernetes',
    product: 'aks',
    title: 'AKS deployment pulls :latest of an image that was pushed under another tag',
    literal:
      'Failed to pull image "rahulsahay19/aksweb": rpc error: code = Unknown desc = Error response from daemon: manifest for rahulsahay19/aksweb:latest not found: manifest unknown: manifest unknown',
    body: 'The manifest names the image without a tag; the registry has only versioned tags.',
    solution: 'Push a latest tag or reference the existing tag in the deployment.',
    symptom: 'aks pod cannot pull my image latest tag missing from docker hub',
  },
  {
    id: 'pub2-moon-failed-pull-commit-tag-code2',
    source: 'https://github.com/aerokube/moon/issues/43',
    ecosystem: 'kubernetes',
    product: 'moon',
    title: 'Moon browser pods reference sidecar images by a commit tag that was not published',
    literal:
      'Warning  Failed   Failed to pull image "aerokube/logger:cad1da0af14ee43856ce3ca635daf0e79ebb1fef": rpc error: code = 2 desc = manifest unknown: manifest unknown',
    body: 'moon:latest pins its logger, uploader and defender containers to commit tags that exist only in CI.',
    solution: 'Use released tags for the pod containers (fixed in the next moon release).',
    symptom: 'aerokube moon logger uploader images manifest unknown',
  },
  {
    id: 'pub2-openshift-registry-manifest-unknown-log',
    source: 'https://github.com/openshift/origin/issues/19538',
    ecosystem: 'kubernetes',
    product: 'openshift',
    title: 'oc cluster up after a VM restart: internal registry lost the image manifests',
    literal:
      'level=error msg="response completed with error" err.code="manifest unknown" err.detail="unknown manifest name=myproject/ruby-ex revision=sha256:67e742cad0bd550718c1d541e60851cd71b76b2cd63b125d0e1e9401cc3414ed" err.message="manifest unknown"',
    body: 'The integrated registry stores images in an ephemeral volume; after the restart the image streams point at blobs that are gone.',
    solution: 'Rebuild the images (oc start-build) or give the registry persistent storage.',
    symptom: 'openshift internal registry manifest unknown after restart image pull back-off',
  },
];

export const HELM_CASES: PublicCase[] = [
  {
    id: 'pub2-helm-upgrade-another-operation',
    source: 'https://github.com/helm/helm/issues/10549',
    ecosystem: 'kubernetes',
    product: 'helm',
    title: 'helm upgrade --install blocked: release stuck in pending-upgrade',
    literal: 'Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress',
    body: 'An earlier upgrade was interrupted (Ctrl+C, CI timeout), leaving the release in a pending state.',
    solution:
      'helm rollback to the last deployed revision, or delete the pending sh.helm.release secret, then upgrade again.',
    symptom: 'helm upgrade stuck pending another operation in progress',
  },
  {
    id: 'pub2-helm-upgrade-another-operation-debug',
    source: 'https://github.com/helm/helm/issues/8987',
    ecosystem: 'kubernetes',
    product: 'helm',
    title: 'Helm 3.4 debug output: another operation in progress while preparing upgrade',
    literal:
      'upgrade.go:121: [debug] preparing upgrade for shortlink-api\nError: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress\nhelm.go:81: [debug] another operation (install/upgrade/rollback) is in progress',
    body: 'A CI job was killed mid-upgrade; the latest release revision stays pending-upgrade.',
    solution:
      'Roll back (helm rollback shortlink-api <last good revision>) and make CI let upgrades finish or time out cleanly.',
    symptom: 'helm debug preparing upgrade another operation ci pipeline',
  },
  {
    id: 'pub2-flux-helm-upgrade-failed-in-progress',
    source: 'https://github.com/fluxcd/helm-controller/issues/149',
    ecosystem: 'kubernetes',
    product: 'flux-helm-controller',
    title: 'Flux helm-controller: HelmRelease stuck with another operation in progress',
    literal: 'Helm upgrade failed: another operation (install/upgrade/rollback) is in progress',
    body: 'The controller was restarted during an upgrade and left the release pending; older controllers never recover it.',
    solution:
      'Upgrade helm-controller (newer releases unlock pending releases), or suspend, roll back and resume the HelmRelease.',
    symptom: 'flux helmrelease upgrade failed another operation',
  },
];

/** Crash loops as `kubectl describe pod` prints them: the last state tells them apart. */
export const CRASHLOOP_CASES: PublicCase[] = [
  {
    id: 'pub2-k8s-backoff-event-harbor-database',
    source: 'https://github.com/goharbor/harbor/issues/14993',
    ecosystem: 'kubernetes',
    product: 'harbor',
    title: 'harbor-database pod restarts in a loop with empty logs',
    literal: 'Warning BackOff 21s (x50 over 10m) kubelet, 10.x.x.x Back-off restarting failed container',
    body: 'The PostgreSQL container of Harbor exits at start (data directory permissions on the volume), before it logs anything useful.',
    solution: 'kubectl logs --previous for the last run, then fix the volume ownership (fsGroup or an init container).',
    symptom: 'harbor database pod back-off restarting no logs',
  },
  {
    id: 'pub2-k8s-backoff-event-tarantool-minikube',
    source: 'https://github.com/tarantool/tarantool-operator/pull/88',
    ecosystem: 'kubernetes',
    product: 'tarantool-operator',
    title: 'Cartridge app on minikube: container starts, then stops on an internal error',
    literal:
      'Warning  BackOff           4m25s (x157 over 38m)  kubelet, minikube  Back-off restarting failed container',
    body: 'The application process inside the pod exits with an error after start, so kubelet backs off restarting it.',
    solution: 'Read kubectl logs <pod> (with --previous) to see the application error and fix its configuration.',
    symptom: 'tarantool cartridge pod backoff minikube events',
  },
  {
    id: 'pub2-k8s-crashloop-completed-exit0',
    source: 'https://github.com/portainer/portainer/issues/5314',
    ecosystem: 'kubernetes',
    product: 'portainer',
    title: 'A centos pod completes immediately and loops: no long-running process',
    literal:
      'State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Completed\n      Exit Code:    0',
    body: 'The centos image runs bash with no TTY and exits 0 at once; a Deployment restarts it forever.',
    solution: 'Give the container a long-running command (or use a Job for one-shot work).',
    symptom: 'pod crashloopbackoff reason completed exit code 0 centos image',
  },
  {
    id: 'pub2-k8s-crashloop-error-exit1-kubeless',
    source: 'https://github.com/vmware-archive/kubeless/issues/781',
    ecosystem: 'kubernetes',
    product: 'kubeless',
    title: 'kafka-trigger-controller crash loop on OpenShift (exit code 1)',
    literal:
      'State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1',
    body: 'The controller exits with an error at start because it cannot reach the Kafka brokers it is configured for.',
    solution: 'Check the controller logs and point it at a reachable Kafka service.',
    symptom: 'kafka trigger controller crashloopbackoff exit code 1 openshift',
  },
];
