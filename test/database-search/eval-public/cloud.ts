/**
 * Public error literals from cloud CLIs and SDKs (AWS, Google Cloud, Azure)
 * and infrastructure tools, each with the address of the thread it was
 * posted in.
 */
import type { PublicCase } from './public-case.ts';

export const CLOUD_CASES: PublicCase[] = [
  {
    id: 'pub2-awscli-unable-to-locate-credentials-ec2',
    source: 'https://github.com/aws/aws-cli/issues/4684',
    ecosystem: 'aws',
    product: 'aws-cli',
    title: 'AWS CLI 1.16.285 cannot find assumed-role credentials on EC2',
    literal: 'Unable to locate credentials. You can configure credentials by running "aws configure".',
    body: 'A release broke the credential provider chain for assumed roles; the previous release works.',
    solution: 'Pin the previous aws-cli release until the fix ships.',
    symptom: 'aws cli cannot find credentials on ec2 after upgrade',
  },
  {
    id: 'pub2-awscli-s3-cp-fatal-unable-to-locate',
    source: 'https://github.com/ionic-team/starters/issues/32',
    ecosystem: 'aws',
    product: 'aws-cli',
    title: 'aws s3 cp: fatal error, no credentials configured',
    literal: 'fatal error: Unable to locate credentials',
    body: 'aws s3 cp needs credentials even for a public bucket unless --no-sign-request is given.',
    solution: 'Run aws configure, or add --no-sign-request for public objects.',
    symptom: 'aws s3 copy public bucket fatal error credentials',
  },
  {
    id: 'pub2-aws-configure-errno13-credentials-file',
    source: 'https://github.com/webiny/docs.webiny.com/issues/501',
    ecosystem: 'aws',
    product: 'aws-cli',
    title: 'aws configure on Windows: permission denied writing .aws/credentials',
    literal: "[Errno 13] Permission denied: 'C:\\Users\\USER/.aws/credentials'",
    body: 'A folder named credentials was created by hand where aws configure wants to write a file.',
    solution: 'Delete the manually created credentials folder and rerun aws configure.',
    symptom: 'aws configure windows permission denied credentials',
  },
  {
    id: 'pub2-aws-access-key-id-not-in-records',
    source: 'https://github.com/allada/bsc-archive-snapshot/issues/33',
    ecosystem: 'aws',
    product: 'aws-cli',
    title: 'AWS rejects the access key id: it does not exist',
    literal: 'The AWS Access Key Id you provided does not exist in our records.',
    body: 'The key was deleted, mistyped, or belongs to another partition; or stale environment variables override the profile.',
    solution: 'Create a new access key and check which credentials are used with aws configure list.',
    symptom: 'aws access key id does not exist in records',
  },
];

export const TERRAFORM_LOCK_CASES: PublicCase[] = [
  {
    id: 'pub2-tf-lock-dynamodb-boxed',
    source: 'https://github.com/Genaker/TerraformMagentoCloud/issues/22',
    ecosystem: 'terraform',
    product: 'terraform',
    title: 'terraform apply after Ctrl+C: DynamoDB state lock still held',
    literal:
      'Error: Error acquiring the state lock\n│ \n│ Error message: ConditionalCheckFailedException: The conditional request\n│ failed',
    body: 'The previous apply was cancelled and left its lock item in the DynamoDB lock table.',
    solution: 'terraform force-unlock <LOCK_ID> (or delete the lock item) once no other run is active.',
    symptom: 'terraform s3 backend lock stuck after cancel dynamodb',
  },
  {
    id: 'pub2-tf-error-locking-state-concurrent',
    source: 'https://github.com/alphagov/govuk-infrastructure/pull/297',
    ecosystem: 'terraform',
    product: 'terraform',
    title: 'Terraform 0.14 refuses to run while another apply holds the lock',
    literal:
      'Error: Error locking state: Error acquiring the state lock: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        12345\n  Path:      govuk-terraform-test/env:/bill/projects/govuk.tfstate\n  Operation: OperationTypeApply',
    body: 'With DynamoDB locking enabled a second apply or destroy on the same state waits for the first.',
    solution: 'Wait for the other run; force-unlock only if it died.',
    symptom: 'terraform error locking state another apply running',
  },
  {
    id: 'pub2-tf-lock-unexpected-end-json',
    source: 'https://github.com/hashicorp/terraform/issues/22410',
    ecosystem: 'terraform',
    product: 'terraform',
    title: 'terraform plan in CI: lock fails and the lock info is unreadable JSON',
    literal:
      'Error: Error locking state: Error acquiring the state lock: 2 error(s) occurred:\n\n* ConditionalCheckFailedException: The conditional request failed\n\tstatus code: 400, request id: 1GC9H7U16EQSUEAN9VOF0QNMPRVV4KQNSO5AEMVJF66Q9ASUAAJG\n* unexpected end of JSON input',
    body: 'A stale lock item without valid Info JSON remains in the lock table from an earlier killed job.',
    solution: 'Delete the stale item from the DynamoDB table (LockID of the state path) and rerun.',
    symptom: 'terraform lock conditional check failed unexpected end of json input',
  },
  {
    id: 'pub2-tf-lock-gcs-412-precondition',
    source: 'https://github.com/substratusai/runbooks/issues/36',
    ecosystem: 'terraform',
    product: 'terraform',
    title: 'GCS backend: default.tflock already exists (googleapi 412 conditionNotMet)',
    literal:
      'Error message: writing "gs://myproject-substratus-terraform/primary/default.tflock" failed: googleapi: Error 412:\n│ At least one of the pre-conditions you specified did not hold., conditionNotMet',
    body: 'A previous installer run left the lock object in the GCS bucket.',
    solution: 'terraform force-unlock with the lock ID, or delete the .tflock object if no run is active.',
    symptom: 'terraform gcs backend tflock precondition 412',
  },
  {
    id: 'pub2-tf-lock-resource-not-found',
    source: 'https://github.com/khuedoan/homelab/issues/170',
    ecosystem: 'terraform',
    product: 'terraform',
    title: 'terraform apply: state lock error "resource not found" with a Kubernetes backend',
    literal: '│ Error: Error acquiring the state lock\n│ \n│ Error message: resource not found',
    body: 'A cancelled apply left the backend lock (a Lease object) in an inconsistent state.',
    solution: 'terraform force-unlock $LOCK_ID, then apply again.',
    symptom: 'terraform state lock resource not found homelab',
  },
];

export const CLOUD_LOGIN_CASES: PublicCase[] = [
  {
    id: 'pub2-gcloud-no-active-account-sudo',
    source: 'https://github.com/jacksegal/google-compute-snapshot/issues/33',
    ecosystem: 'gcp',
    product: 'gcloud',
    title: 'Snapshot script under sudo: gcloud has no active account for root',
    literal:
      'ERROR: (gcloud.compute.disks.list) You do not currently have an active account selected.\nPlease run:\n\n  $ gcloud auth login',
    body: 'gcloud credentials live per user; running the script with sudo uses root, which never logged in.',
    solution: 'Run without sudo, or log in (or use the VM service account with the right scopes) as root.',
    symptom: 'gcloud compute snapshot script sudo no active account',
  },
  {
    id: 'pub2-terraform-azurecli-authorizer-az-login',
    source: 'https://github.com/elastic/cloudbeat/pull/2458',
    ecosystem: 'azure',
    product: 'terraform-azurerm',
    title: 'Terraform azurerm in CI: AzureCli authorizer needs az login first',
    literal:
      "Error: unable to build authorizer for Resource Manager API: could not configure AzureCli Authorizer: tenant ID was not specified and the default tenant ID could not be determined: obtaining tenant ID: obtaining account details: running Azure CLI: exit status 1: ERROR: Please run 'az login' to setup account.",
    body: 'The workflow runs terraform before the az login step.',
    solution: 'Run az login (or azure/login) before terraform, or configure a service principal for the provider.',
    symptom: 'terraform azurerm azure cli authorizer tenant id az login ci',
  },
];
