/* eslint-disable */
import * as types from "./graphql";
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  "\n  mutation LeaveOrganization($organizationId: ID!) {\n    leaveOrganization(organizationId: $organizationId)\n  }\n": typeof types.LeaveOrganizationDocument;
  "\n  query AuditEvents($action: String, $actor: ID, $target: ID, $since: DateTime, $until: DateTime, $after: String) {\n    auditEvents(action: $action, actorUserId: $actor, targetId: $target, since: $since, until: $until, first: 50, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome\n        clientAddress requestId\n      }\n    }\n  }\n": typeof types.AuditEventsDocument;
  "\n  query InvitationLink($token: String!) {\n    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }\n  }\n": typeof types.InvitationLinkDocument;
  "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) { id role organization { id name } }\n  }\n": typeof types.AcceptInvitationDocument;
  "\n  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {\n    signUpWithInvitation(input: $input) { id email }\n  }\n": typeof types.SignUpWithInvitationDocument;
  "\n  fragment ApplicationManageFields on Application {\n    id\n    name\n    needsDeployment\n    sourceType\n    buildType\n    port\n    source { type repo branch buildPath dockerImage customGitUrl }\n    deploySettings { healthPath }\n    domains { id host port https createdAt }\n    environmentVariables { key value }\n  }\n": typeof types.ApplicationManageFieldsFragmentDoc;
  "\n  query ApplicationManage($id: ID!) {\n    application(id: $id) { ...ApplicationManageFields }\n  }\n": typeof types.ApplicationManageDocument;
  "\n  mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!) {\n    setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value) { ...ApplicationManageFields }\n  }\n": typeof types.SetEnvironmentVariableDocument;
  "\n  mutation PasteEnvironmentVariables($applicationId: ID!, $dotenv: String!) {\n    setEnvironmentVariables(applicationId: $applicationId, dotenv: $dotenv) {\n      setKeys\n      application { ...ApplicationManageFields }\n    }\n  }\n": typeof types.PasteEnvironmentVariablesDocument;
  "\n  mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!) {\n    unsetEnvironmentVariable(applicationId: $applicationId, key: $key) { ...ApplicationManageFields }\n  }\n": typeof types.UnsetEnvironmentVariableDocument;
  "\n  mutation AddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id application { ...ApplicationManageFields } }\n  }\n": typeof types.AddDomainDocument;
  "\n  mutation RemoveDomain($applicationId: ID!, $host: String!) {\n    removeDomain(applicationId: $applicationId, host: $host) { ...ApplicationManageFields }\n  }\n": typeof types.RemoveDomainDocument;
  "\n  mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {\n    updateApplication(id: $id, input: $input) { ...ApplicationManageFields }\n  }\n": typeof types.UpdateApplicationDocument;
  "\n  mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) {\n    updateDomain(id: $id, input: $input) { id port https application { ...ApplicationManageFields } }\n  }\n": typeof types.UpdateDomainDocument;
  "\n  query ApplicationTree($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      viewerRole\n      projects(first: 100) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            environments {\n              id\n              name\n              applications { id name appName applicationStatus sourceType }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.ApplicationTreeDocument;
  "\n  fragment DeploySettingsFields on DeploySettings {\n    autoDeploy branchFilter watchPaths requireSignature hasWebhookSecret healthPath\n  }\n": typeof types.DeploySettingsFieldsFragmentDoc;
  "\n  query ApplicationDeploySettings($id: ID!) {\n    application(id: $id) {\n      id\n      name\n      appName\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      deployWebhookUrl\n      deploySettings { ...DeploySettingsFields }\n    }\n  }\n": typeof types.ApplicationDeploySettingsDocument;
  "\n  mutation RegenerateDeployToken($applicationId: ID!) { regenerateDeployToken(applicationId: $applicationId) }\n": typeof types.RegenerateDeployTokenDocument;
  "\n  mutation RegenerateDeployWebhookSecret($applicationId: ID!) {\n    regenerateDeployWebhookSecret(applicationId: $applicationId)\n  }\n": typeof types.RegenerateDeployWebhookSecretDocument;
  "\n  mutation UpdateDeploySettings($applicationId: ID!, $input: DeploySettingsInput!) {\n    updateDeploySettings(applicationId: $applicationId, input: $input) { ...DeploySettingsFields }\n  }\n": typeof types.UpdateDeploySettingsDocument;
  "\n  fragment DeploymentRow on Deployment {\n    id status title description trigger commitSha errorMessage createdAt startedAt finishedAt\n  }\n": typeof types.DeploymentRowFragmentDoc;
  "\n  query ApplicationDeployments($id: ID!, $organizationId: ID!) {\n    organization(id: $organizationId) { id viewerRole }\n    application(id: $id) {\n      id\n      name\n      appName\n      applicationStatus\n      health\n      healthCheckedAt\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      domains { id host https }\n      deployments(first: 50) { ...DeploymentRow }\n    }\n  }\n": typeof types.ApplicationDeploymentsDocument;
  "\n  query DeploymentLogs($id: ID!, $first: Int!) {\n    application(id: $id) {\n      id\n      deployments(first: $first) { id logs { at level text } }\n    }\n  }\n": typeof types.DeploymentLogsDocument;
  "\n  subscription DeploymentUpdated($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId\n      status\n      cursor\n      logLine { at level text }\n      deployment { ...DeploymentRow }\n    }\n  }\n": typeof types.DeploymentUpdatedDocument;
  "\n  mutation DeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...DeploymentRow }\n  }\n": typeof types.DeployApplicationDocument;
  "\n  mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ...DeploymentRow } }\n": typeof types.CancelDeploymentDocument;
  "\n  mutation RedeployDeployment($id: ID!) { redeployDeployment(id: $id) { ...DeploymentRow } }\n": typeof types.RedeployDeploymentDocument;
  "\n  query ApplicationOrganization($id: ID!) {\n    application(id: $id) { id project { id organization { id name } } }\n  }\n": typeof types.ApplicationOrganizationDocument;
  "\n  fragment DocsThemeFields on DocsTheme {\n    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet\n    updatedAt\n    docsRegistration { hostname syncedAt dns cnameTarget conflict }\n  }\n": typeof types.DocsThemeFieldsFragmentDoc;
  "\n  query DocsTheme($organizationId: ID!) {\n    docsTheme(organizationId: $organizationId) { ...DocsThemeFields }\n  }\n": typeof types.DocsThemeDocument;
  "\n  mutation SetDocsTheme($organizationId: ID!, $input: DocsThemeInput!) {\n    setDocsTheme(organizationId: $organizationId, input: $input) { ...DocsThemeFields }\n  }\n": typeof types.SetDocsThemeDocument;
  "\n  fragment PaymentServiceRow on PaymentGatewayService {\n    id name webhookUrl createdAt merchantCode merchantStatus checkoutUrl\n    paymentMethods { id label kind enabled }\n  }\n": typeof types.PaymentServiceRowFragmentDoc;
  "\n  fragment PaymentRelayRow on PaymentRelay {\n    id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt\n  }\n": typeof types.PaymentRelayRowFragmentDoc;
  "\n  query ProjectPayments($projectId: ID!) {\n    project(id: $projectId) {\n      id name\n      paymentGatewayServices { ...PaymentServiceRow }\n    }\n  }\n": typeof types.ProjectPaymentsDocument;
  "\n  query PaymentRelays($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      paymentGatewayServices { id relays(first: $first) { ...PaymentRelayRow } }\n    }\n  }\n": typeof types.PaymentRelaysDocument;
  "\n  query PaymentSigningKeys($projectId: ID!) {\n    project(id: $projectId) { id paymentGatewayServices { id signingKey } }\n  }\n": typeof types.PaymentSigningKeysDocument;
  "\n  mutation CreatePaymentService($projectId: ID!, $name: String!, $webhookUrl: String) {\n    createPaymentGatewayService(projectId: $projectId, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n": typeof types.CreatePaymentServiceDocument;
  "\n  mutation UpdatePaymentService($id: ID!, $name: String, $webhookUrl: String) {\n    updatePaymentGatewayService(id: $id, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n": typeof types.UpdatePaymentServiceDocument;
  "\n  mutation DeletePaymentService($id: ID!) {\n    deletePaymentGatewayService(id: $id)\n  }\n": typeof types.DeletePaymentServiceDocument;
  "\n  mutation SetPaymentMethod($serviceId: ID!, $method: String!, $enabled: Boolean!) {\n    setPaymentMethodEnabled(serviceId: $serviceId, method: $method, enabled: $enabled) { id label kind enabled }\n  }\n": typeof types.SetPaymentMethodDocument;
  "\n  query PlanUsage($id: ID!) {\n    organization(id: $id) {\n      id name viewerRole\n      plan {\n        name features\n        quotas { projects applications databases domains }\n        usage { projects applications databases domains }\n      }\n    }\n  }\n": typeof types.PlanUsageDocument;
  "\n  query ProjectTree($after: String) {\n    projects(first: 100, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id name description createdAt\n          environments {\n            id name\n            applications {\n              id name appName applicationStatus health healthCheckedAt\n              domains { id host https }\n              deployments(first: 1) { id status title createdAt finishedAt }\n            }\n            databases { id name type user serviceHost createdAt }\n          }\n        }\n      }\n    }\n  }\n": typeof types.ProjectTreeDocument;
  "\n  mutation CreateEnvironment($projectId: ID!, $name: String!) { createEnvironment(projectId: $projectId, name: $name) { id name } }\n": typeof types.CreateEnvironmentDocument;
  "\n  mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }\n": typeof types.DeleteEnvironmentDocument;
  "\n  mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { id name } }\n": typeof types.CreateApplicationDocument;
  "\n  mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }\n": typeof types.DeleteApplicationDocument;
  "\n  mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { id name } }\n": typeof types.RenameEnvironmentDocument;
  "\n  mutation CreateDatabase($input: CreateDatabaseInput!) {\n    createDatabase(input: $input) { database { id name } applications { id } generatedPassword }\n  }\n": typeof types.CreateDatabaseDocument;
  "\n  mutation RotateDatabasePassword($id: ID!) {\n    rotateDatabasePassword(id: $id) { database { id } applications { id name } generatedPassword }\n  }\n": typeof types.RotateDatabasePasswordDocument;
  "\n  mutation DeleteDatabase($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id name } } }\n": typeof types.DeleteDatabaseDocument;
  "\n  fragment MemberRow on Member {\n    id role createdAt\n    user { id email name }\n    grants { id createdAt project { id name } application { id name } }\n  }\n": typeof types.MemberRowFragmentDoc;
  "\n  query Settings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      viewerRole\n      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }\n      members { ...MemberRow }\n      invitations { id email role status createdAt expiresAt link }\n      projects(first: 100) { edges { node { id name } } }\n    }\n    agentToken { prefix createdAt expiresAt lastUsedAt }\n  }\n": typeof types.SettingsDocument;
  "\n  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }\n": typeof types.CreateApiKeyDocument;
  "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n": typeof types.DeleteApiKeyDocument;
  "\n  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }\n": typeof types.CreateAgentTokenDocument;
  "\n  mutation RevokeAgentToken { revokeAgentToken }\n": typeof types.RevokeAgentTokenDocument;
  "\n  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }\n": typeof types.InviteMemberDocument;
  "\n  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }\n": typeof types.ResendInvitationDocument;
  "\n  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }\n": typeof types.CancelInvitationDocument;
  "\n  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }\n": typeof types.UpdateMemberRoleDocument;
  "\n  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }\n": typeof types.RemoveMemberDocument;
  "\n  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }\n": typeof types.GrantAccessDocument;
  "\n  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }\n": typeof types.RevokeAccessDocument;
  "\n  fragment SiteImportRow on SiteImport {\n    id name status errorStep errorMessage attempts createdAt updatedAt finishedAt\n    projectId applicationId databaseId domainId databaseType databaseServiceHost\n    project { id name }\n    application { id name appName }\n    database { id name }\n    domain { id host }\n  }\n": typeof types.SiteImportRowFragmentDoc;
  "\n  query SiteImports($first: Int!, $offset: Int!) {\n    siteImports(first: $first, offset: $offset) {\n      totalCount\n      edges { node { ...SiteImportRow } }\n    }\n  }\n": typeof types.SiteImportsDocument;
  "\n  subscription SiteImportUpdated($after: String) {\n    siteImportUpdated(after: $after) { importId status cursor siteImport { ...SiteImportRow } }\n  }\n": typeof types.SiteImportUpdatedDocument;
  "\n  query ImportPrerequisites($id: ID!) {\n    organization(id: $id) {\n      id\n      gitProviders { id name type }\n      sshKeys { id name }\n      containerRegistries { id name }\n    }\n  }\n": typeof types.ImportPrerequisitesDocument;
  "\n  query PreviewSiteImport($input: SiteImportInput!) {\n    previewSiteImport(input: $input) {\n      valid warnings errors\n      resources {\n        project { name }\n        database { type name }\n        application { name sourceType buildType }\n        domain { host }\n      }\n    }\n  }\n": typeof types.PreviewSiteImportDocument;
  "\n  mutation ImportSite($input: SiteImportInput!) {\n    importSite(input: $input) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n": typeof types.ImportSiteDocument;
  "\n  mutation RetrySiteImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n": typeof types.RetrySiteImportDocument;
  "\n  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {\n    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }\n  }\n": typeof types.DeleteSiteImportDocument;
  "\n  fragment WebhookEndpointRow on WebhookEndpoint {\n    webhookUuid url events isActive description creationDate updateDate\n  }\n": typeof types.WebhookEndpointRowFragmentDoc;
  "\n  fragment WebhookDeliveryRow on WebhookDeliveryAttempt {\n    deliveryId event attempt success responseStatus errorMessage durationMs createdAt\n  }\n": typeof types.WebhookDeliveryRowFragmentDoc;
  "\n  query Webhooks($organizationId: ID!) {\n    webhooks(organizationId: $organizationId) { ...WebhookEndpointRow }\n    webhookEvents(organizationId: $organizationId) { name category description }\n  }\n": typeof types.WebhooksDocument;
  "\n  query WebhookDeliveries($organizationId: ID!, $webhookUuid: ID!, $limit: Int) {\n    webhookDeliveries(organizationId: $organizationId, webhookUuid: $webhookUuid, limit: $limit) {\n      ...WebhookDeliveryRow\n    }\n  }\n": typeof types.WebhookDeliveriesDocument;
  "\n  mutation CreateWebhook($organizationId: ID!, $input: CreateWebhookInput!) {\n    createWebhook(organizationId: $organizationId, input: $input) { secret webhook { ...WebhookEndpointRow } }\n  }\n": typeof types.CreateWebhookDocument;
  "\n  mutation UpdateWebhook($organizationId: ID!, $webhookUuid: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, input: $input) { ...WebhookEndpointRow }\n  }\n": typeof types.UpdateWebhookDocument;
  "\n  mutation DeleteWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    deleteWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid)\n  }\n": typeof types.DeleteWebhookDocument;
  "\n  mutation RegenerateWebhookSecret($organizationId: ID!, $webhookUuid: ID!) {\n    regenerateWebhookSecret(organizationId: $organizationId, webhookUuid: $webhookUuid) { secret }\n  }\n": typeof types.RegenerateWebhookSecretDocument;
  "\n  mutation TestWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    testWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid) {\n      deliveryId\n      firstAttempt { ...WebhookDeliveryRow }\n    }\n  }\n": typeof types.TestWebhookDocument;
  "\n  mutation RedeliverWebhook($organizationId: ID!, $webhookUuid: ID!, $deliveryId: String!) {\n    redeliverWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, deliveryId: $deliveryId)\n  }\n": typeof types.RedeliverWebhookDocument;
  "\n  query Viewer {\n    viewer {\n      user { id email name twoFactorEnabled }\n      activeOrganization { id name }\n      role\n    }\n    organizations { id name viewerRole plan { name } }\n  }\n": typeof types.ViewerDocument;
  "\n  mutation SetActiveOrganization($id: ID!) {\n    setActiveOrganization(id: $id) { activeOrganization { id } }\n  }\n": typeof types.SetActiveOrganizationDocument;
  "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name }\n  }\n": typeof types.CreateOrganizationDocument;
};
const documents: Documents = {
  "\n  mutation LeaveOrganization($organizationId: ID!) {\n    leaveOrganization(organizationId: $organizationId)\n  }\n":
    types.LeaveOrganizationDocument,
  "\n  query AuditEvents($action: String, $actor: ID, $target: ID, $since: DateTime, $until: DateTime, $after: String) {\n    auditEvents(action: $action, actorUserId: $actor, targetId: $target, since: $since, until: $until, first: 50, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome\n        clientAddress requestId\n      }\n    }\n  }\n":
    types.AuditEventsDocument,
  "\n  query InvitationLink($token: String!) {\n    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }\n  }\n":
    types.InvitationLinkDocument,
  "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) { id role organization { id name } }\n  }\n":
    types.AcceptInvitationDocument,
  "\n  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {\n    signUpWithInvitation(input: $input) { id email }\n  }\n":
    types.SignUpWithInvitationDocument,
  "\n  fragment ApplicationManageFields on Application {\n    id\n    name\n    needsDeployment\n    sourceType\n    buildType\n    port\n    source { type repo branch buildPath dockerImage customGitUrl }\n    deploySettings { healthPath }\n    domains { id host port https createdAt }\n    environmentVariables { key value }\n  }\n":
    types.ApplicationManageFieldsFragmentDoc,
  "\n  query ApplicationManage($id: ID!) {\n    application(id: $id) { ...ApplicationManageFields }\n  }\n":
    types.ApplicationManageDocument,
  "\n  mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!) {\n    setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value) { ...ApplicationManageFields }\n  }\n":
    types.SetEnvironmentVariableDocument,
  "\n  mutation PasteEnvironmentVariables($applicationId: ID!, $dotenv: String!) {\n    setEnvironmentVariables(applicationId: $applicationId, dotenv: $dotenv) {\n      setKeys\n      application { ...ApplicationManageFields }\n    }\n  }\n":
    types.PasteEnvironmentVariablesDocument,
  "\n  mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!) {\n    unsetEnvironmentVariable(applicationId: $applicationId, key: $key) { ...ApplicationManageFields }\n  }\n":
    types.UnsetEnvironmentVariableDocument,
  "\n  mutation AddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id application { ...ApplicationManageFields } }\n  }\n":
    types.AddDomainDocument,
  "\n  mutation RemoveDomain($applicationId: ID!, $host: String!) {\n    removeDomain(applicationId: $applicationId, host: $host) { ...ApplicationManageFields }\n  }\n":
    types.RemoveDomainDocument,
  "\n  mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {\n    updateApplication(id: $id, input: $input) { ...ApplicationManageFields }\n  }\n":
    types.UpdateApplicationDocument,
  "\n  mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) {\n    updateDomain(id: $id, input: $input) { id port https application { ...ApplicationManageFields } }\n  }\n":
    types.UpdateDomainDocument,
  "\n  query ApplicationTree($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      viewerRole\n      projects(first: 100) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            environments {\n              id\n              name\n              applications { id name appName applicationStatus sourceType }\n            }\n          }\n        }\n      }\n    }\n  }\n":
    types.ApplicationTreeDocument,
  "\n  fragment DeploySettingsFields on DeploySettings {\n    autoDeploy branchFilter watchPaths requireSignature hasWebhookSecret healthPath\n  }\n":
    types.DeploySettingsFieldsFragmentDoc,
  "\n  query ApplicationDeploySettings($id: ID!) {\n    application(id: $id) {\n      id\n      name\n      appName\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      deployWebhookUrl\n      deploySettings { ...DeploySettingsFields }\n    }\n  }\n":
    types.ApplicationDeploySettingsDocument,
  "\n  mutation RegenerateDeployToken($applicationId: ID!) { regenerateDeployToken(applicationId: $applicationId) }\n":
    types.RegenerateDeployTokenDocument,
  "\n  mutation RegenerateDeployWebhookSecret($applicationId: ID!) {\n    regenerateDeployWebhookSecret(applicationId: $applicationId)\n  }\n":
    types.RegenerateDeployWebhookSecretDocument,
  "\n  mutation UpdateDeploySettings($applicationId: ID!, $input: DeploySettingsInput!) {\n    updateDeploySettings(applicationId: $applicationId, input: $input) { ...DeploySettingsFields }\n  }\n":
    types.UpdateDeploySettingsDocument,
  "\n  fragment DeploymentRow on Deployment {\n    id status title description trigger commitSha errorMessage createdAt startedAt finishedAt\n  }\n":
    types.DeploymentRowFragmentDoc,
  "\n  query ApplicationDeployments($id: ID!, $organizationId: ID!) {\n    organization(id: $organizationId) { id viewerRole }\n    application(id: $id) {\n      id\n      name\n      appName\n      applicationStatus\n      health\n      healthCheckedAt\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      domains { id host https }\n      deployments(first: 50) { ...DeploymentRow }\n    }\n  }\n":
    types.ApplicationDeploymentsDocument,
  "\n  query DeploymentLogs($id: ID!, $first: Int!) {\n    application(id: $id) {\n      id\n      deployments(first: $first) { id logs { at level text } }\n    }\n  }\n":
    types.DeploymentLogsDocument,
  "\n  subscription DeploymentUpdated($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId\n      status\n      cursor\n      logLine { at level text }\n      deployment { ...DeploymentRow }\n    }\n  }\n":
    types.DeploymentUpdatedDocument,
  "\n  mutation DeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...DeploymentRow }\n  }\n":
    types.DeployApplicationDocument,
  "\n  mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ...DeploymentRow } }\n":
    types.CancelDeploymentDocument,
  "\n  mutation RedeployDeployment($id: ID!) { redeployDeployment(id: $id) { ...DeploymentRow } }\n":
    types.RedeployDeploymentDocument,
  "\n  query ApplicationOrganization($id: ID!) {\n    application(id: $id) { id project { id organization { id name } } }\n  }\n":
    types.ApplicationOrganizationDocument,
  "\n  fragment DocsThemeFields on DocsTheme {\n    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet\n    updatedAt\n    docsRegistration { hostname syncedAt dns cnameTarget conflict }\n  }\n":
    types.DocsThemeFieldsFragmentDoc,
  "\n  query DocsTheme($organizationId: ID!) {\n    docsTheme(organizationId: $organizationId) { ...DocsThemeFields }\n  }\n":
    types.DocsThemeDocument,
  "\n  mutation SetDocsTheme($organizationId: ID!, $input: DocsThemeInput!) {\n    setDocsTheme(organizationId: $organizationId, input: $input) { ...DocsThemeFields }\n  }\n":
    types.SetDocsThemeDocument,
  "\n  fragment PaymentServiceRow on PaymentGatewayService {\n    id name webhookUrl createdAt merchantCode merchantStatus checkoutUrl\n    paymentMethods { id label kind enabled }\n  }\n":
    types.PaymentServiceRowFragmentDoc,
  "\n  fragment PaymentRelayRow on PaymentRelay {\n    id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt\n  }\n":
    types.PaymentRelayRowFragmentDoc,
  "\n  query ProjectPayments($projectId: ID!) {\n    project(id: $projectId) {\n      id name\n      paymentGatewayServices { ...PaymentServiceRow }\n    }\n  }\n":
    types.ProjectPaymentsDocument,
  "\n  query PaymentRelays($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      paymentGatewayServices { id relays(first: $first) { ...PaymentRelayRow } }\n    }\n  }\n":
    types.PaymentRelaysDocument,
  "\n  query PaymentSigningKeys($projectId: ID!) {\n    project(id: $projectId) { id paymentGatewayServices { id signingKey } }\n  }\n":
    types.PaymentSigningKeysDocument,
  "\n  mutation CreatePaymentService($projectId: ID!, $name: String!, $webhookUrl: String) {\n    createPaymentGatewayService(projectId: $projectId, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n":
    types.CreatePaymentServiceDocument,
  "\n  mutation UpdatePaymentService($id: ID!, $name: String, $webhookUrl: String) {\n    updatePaymentGatewayService(id: $id, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n":
    types.UpdatePaymentServiceDocument,
  "\n  mutation DeletePaymentService($id: ID!) {\n    deletePaymentGatewayService(id: $id)\n  }\n":
    types.DeletePaymentServiceDocument,
  "\n  mutation SetPaymentMethod($serviceId: ID!, $method: String!, $enabled: Boolean!) {\n    setPaymentMethodEnabled(serviceId: $serviceId, method: $method, enabled: $enabled) { id label kind enabled }\n  }\n":
    types.SetPaymentMethodDocument,
  "\n  query PlanUsage($id: ID!) {\n    organization(id: $id) {\n      id name viewerRole\n      plan {\n        name features\n        quotas { projects applications databases domains }\n        usage { projects applications databases domains }\n      }\n    }\n  }\n":
    types.PlanUsageDocument,
  "\n  query ProjectTree($after: String) {\n    projects(first: 100, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id name description createdAt\n          environments {\n            id name\n            applications {\n              id name appName applicationStatus health healthCheckedAt\n              domains { id host https }\n              deployments(first: 1) { id status title createdAt finishedAt }\n            }\n            databases { id name type user serviceHost createdAt }\n          }\n        }\n      }\n    }\n  }\n":
    types.ProjectTreeDocument,
  "\n  mutation CreateEnvironment($projectId: ID!, $name: String!) { createEnvironment(projectId: $projectId, name: $name) { id name } }\n":
    types.CreateEnvironmentDocument,
  "\n  mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }\n": types.DeleteEnvironmentDocument,
  "\n  mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { id name } }\n":
    types.CreateApplicationDocument,
  "\n  mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }\n": types.DeleteApplicationDocument,
  "\n  mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { id name } }\n":
    types.RenameEnvironmentDocument,
  "\n  mutation CreateDatabase($input: CreateDatabaseInput!) {\n    createDatabase(input: $input) { database { id name } applications { id } generatedPassword }\n  }\n":
    types.CreateDatabaseDocument,
  "\n  mutation RotateDatabasePassword($id: ID!) {\n    rotateDatabasePassword(id: $id) { database { id } applications { id name } generatedPassword }\n  }\n":
    types.RotateDatabasePasswordDocument,
  "\n  mutation DeleteDatabase($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id name } } }\n":
    types.DeleteDatabaseDocument,
  "\n  fragment MemberRow on Member {\n    id role createdAt\n    user { id email name }\n    grants { id createdAt project { id name } application { id name } }\n  }\n":
    types.MemberRowFragmentDoc,
  "\n  query Settings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      viewerRole\n      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }\n      members { ...MemberRow }\n      invitations { id email role status createdAt expiresAt link }\n      projects(first: 100) { edges { node { id name } } }\n    }\n    agentToken { prefix createdAt expiresAt lastUsedAt }\n  }\n":
    types.SettingsDocument,
  "\n  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }\n":
    types.CreateApiKeyDocument,
  "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n": types.DeleteApiKeyDocument,
  "\n  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }\n":
    types.CreateAgentTokenDocument,
  "\n  mutation RevokeAgentToken { revokeAgentToken }\n": types.RevokeAgentTokenDocument,
  "\n  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }\n":
    types.InviteMemberDocument,
  "\n  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }\n": types.ResendInvitationDocument,
  "\n  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }\n": types.CancelInvitationDocument,
  "\n  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }\n":
    types.UpdateMemberRoleDocument,
  "\n  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }\n": types.RemoveMemberDocument,
  "\n  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }\n":
    types.GrantAccessDocument,
  "\n  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }\n": types.RevokeAccessDocument,
  "\n  fragment SiteImportRow on SiteImport {\n    id name status errorStep errorMessage attempts createdAt updatedAt finishedAt\n    projectId applicationId databaseId domainId databaseType databaseServiceHost\n    project { id name }\n    application { id name appName }\n    database { id name }\n    domain { id host }\n  }\n":
    types.SiteImportRowFragmentDoc,
  "\n  query SiteImports($first: Int!, $offset: Int!) {\n    siteImports(first: $first, offset: $offset) {\n      totalCount\n      edges { node { ...SiteImportRow } }\n    }\n  }\n":
    types.SiteImportsDocument,
  "\n  subscription SiteImportUpdated($after: String) {\n    siteImportUpdated(after: $after) { importId status cursor siteImport { ...SiteImportRow } }\n  }\n":
    types.SiteImportUpdatedDocument,
  "\n  query ImportPrerequisites($id: ID!) {\n    organization(id: $id) {\n      id\n      gitProviders { id name type }\n      sshKeys { id name }\n      containerRegistries { id name }\n    }\n  }\n":
    types.ImportPrerequisitesDocument,
  "\n  query PreviewSiteImport($input: SiteImportInput!) {\n    previewSiteImport(input: $input) {\n      valid warnings errors\n      resources {\n        project { name }\n        database { type name }\n        application { name sourceType buildType }\n        domain { host }\n      }\n    }\n  }\n":
    types.PreviewSiteImportDocument,
  "\n  mutation ImportSite($input: SiteImportInput!) {\n    importSite(input: $input) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n":
    types.ImportSiteDocument,
  "\n  mutation RetrySiteImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n":
    types.RetrySiteImportDocument,
  "\n  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {\n    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }\n  }\n":
    types.DeleteSiteImportDocument,
  "\n  fragment WebhookEndpointRow on WebhookEndpoint {\n    webhookUuid url events isActive description creationDate updateDate\n  }\n":
    types.WebhookEndpointRowFragmentDoc,
  "\n  fragment WebhookDeliveryRow on WebhookDeliveryAttempt {\n    deliveryId event attempt success responseStatus errorMessage durationMs createdAt\n  }\n":
    types.WebhookDeliveryRowFragmentDoc,
  "\n  query Webhooks($organizationId: ID!) {\n    webhooks(organizationId: $organizationId) { ...WebhookEndpointRow }\n    webhookEvents(organizationId: $organizationId) { name category description }\n  }\n":
    types.WebhooksDocument,
  "\n  query WebhookDeliveries($organizationId: ID!, $webhookUuid: ID!, $limit: Int) {\n    webhookDeliveries(organizationId: $organizationId, webhookUuid: $webhookUuid, limit: $limit) {\n      ...WebhookDeliveryRow\n    }\n  }\n":
    types.WebhookDeliveriesDocument,
  "\n  mutation CreateWebhook($organizationId: ID!, $input: CreateWebhookInput!) {\n    createWebhook(organizationId: $organizationId, input: $input) { secret webhook { ...WebhookEndpointRow } }\n  }\n":
    types.CreateWebhookDocument,
  "\n  mutation UpdateWebhook($organizationId: ID!, $webhookUuid: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, input: $input) { ...WebhookEndpointRow }\n  }\n":
    types.UpdateWebhookDocument,
  "\n  mutation DeleteWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    deleteWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid)\n  }\n":
    types.DeleteWebhookDocument,
  "\n  mutation RegenerateWebhookSecret($organizationId: ID!, $webhookUuid: ID!) {\n    regenerateWebhookSecret(organizationId: $organizationId, webhookUuid: $webhookUuid) { secret }\n  }\n":
    types.RegenerateWebhookSecretDocument,
  "\n  mutation TestWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    testWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid) {\n      deliveryId\n      firstAttempt { ...WebhookDeliveryRow }\n    }\n  }\n":
    types.TestWebhookDocument,
  "\n  mutation RedeliverWebhook($organizationId: ID!, $webhookUuid: ID!, $deliveryId: String!) {\n    redeliverWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, deliveryId: $deliveryId)\n  }\n":
    types.RedeliverWebhookDocument,
  "\n  query Viewer {\n    viewer {\n      user { id email name twoFactorEnabled }\n      activeOrganization { id name }\n      role\n    }\n    organizations { id name viewerRole plan { name } }\n  }\n":
    types.ViewerDocument,
  "\n  mutation SetActiveOrganization($id: ID!) {\n    setActiveOrganization(id: $id) { activeOrganization { id } }\n  }\n":
    types.SetActiveOrganizationDocument,
  "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name }\n  }\n":
    types.CreateOrganizationDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation LeaveOrganization($organizationId: ID!) {\n    leaveOrganization(organizationId: $organizationId)\n  }\n",
): (typeof documents)["\n  mutation LeaveOrganization($organizationId: ID!) {\n    leaveOrganization(organizationId: $organizationId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query AuditEvents($action: String, $actor: ID, $target: ID, $since: DateTime, $until: DateTime, $after: String) {\n    auditEvents(action: $action, actorUserId: $actor, targetId: $target, since: $since, until: $until, first: 50, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome\n        clientAddress requestId\n      }\n    }\n  }\n",
): (typeof documents)["\n  query AuditEvents($action: String, $actor: ID, $target: ID, $since: DateTime, $until: DateTime, $after: String) {\n    auditEvents(action: $action, actorUserId: $actor, targetId: $target, since: $since, until: $until, first: 50, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome\n        clientAddress requestId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query InvitationLink($token: String!) {\n    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }\n  }\n",
): (typeof documents)["\n  query InvitationLink($token: String!) {\n    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) { id role organization { id name } }\n  }\n",
): (typeof documents)["\n  mutation AcceptInvitation($token: String!) {\n    acceptInvitation(token: $token) { id role organization { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {\n    signUpWithInvitation(input: $input) { id email }\n  }\n",
): (typeof documents)["\n  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {\n    signUpWithInvitation(input: $input) { id email }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment ApplicationManageFields on Application {\n    id\n    name\n    needsDeployment\n    sourceType\n    buildType\n    port\n    source { type repo branch buildPath dockerImage customGitUrl }\n    deploySettings { healthPath }\n    domains { id host port https createdAt }\n    environmentVariables { key value }\n  }\n",
): (typeof documents)["\n  fragment ApplicationManageFields on Application {\n    id\n    name\n    needsDeployment\n    sourceType\n    buildType\n    port\n    source { type repo branch buildPath dockerImage customGitUrl }\n    deploySettings { healthPath }\n    domains { id host port https createdAt }\n    environmentVariables { key value }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ApplicationManage($id: ID!) {\n    application(id: $id) { ...ApplicationManageFields }\n  }\n",
): (typeof documents)["\n  query ApplicationManage($id: ID!) {\n    application(id: $id) { ...ApplicationManageFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!) {\n    setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value) { ...ApplicationManageFields }\n  }\n",
): (typeof documents)["\n  mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!) {\n    setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value) { ...ApplicationManageFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation PasteEnvironmentVariables($applicationId: ID!, $dotenv: String!) {\n    setEnvironmentVariables(applicationId: $applicationId, dotenv: $dotenv) {\n      setKeys\n      application { ...ApplicationManageFields }\n    }\n  }\n",
): (typeof documents)["\n  mutation PasteEnvironmentVariables($applicationId: ID!, $dotenv: String!) {\n    setEnvironmentVariables(applicationId: $applicationId, dotenv: $dotenv) {\n      setKeys\n      application { ...ApplicationManageFields }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!) {\n    unsetEnvironmentVariable(applicationId: $applicationId, key: $key) { ...ApplicationManageFields }\n  }\n",
): (typeof documents)["\n  mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!) {\n    unsetEnvironmentVariable(applicationId: $applicationId, key: $key) { ...ApplicationManageFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation AddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id application { ...ApplicationManageFields } }\n  }\n",
): (typeof documents)["\n  mutation AddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id application { ...ApplicationManageFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RemoveDomain($applicationId: ID!, $host: String!) {\n    removeDomain(applicationId: $applicationId, host: $host) { ...ApplicationManageFields }\n  }\n",
): (typeof documents)["\n  mutation RemoveDomain($applicationId: ID!, $host: String!) {\n    removeDomain(applicationId: $applicationId, host: $host) { ...ApplicationManageFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {\n    updateApplication(id: $id, input: $input) { ...ApplicationManageFields }\n  }\n",
): (typeof documents)["\n  mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {\n    updateApplication(id: $id, input: $input) { ...ApplicationManageFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) {\n    updateDomain(id: $id, input: $input) { id port https application { ...ApplicationManageFields } }\n  }\n",
): (typeof documents)["\n  mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) {\n    updateDomain(id: $id, input: $input) { id port https application { ...ApplicationManageFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ApplicationTree($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      viewerRole\n      projects(first: 100) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            environments {\n              id\n              name\n              applications { id name appName applicationStatus sourceType }\n            }\n          }\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query ApplicationTree($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      viewerRole\n      projects(first: 100) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            environments {\n              id\n              name\n              applications { id name appName applicationStatus sourceType }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment DeploySettingsFields on DeploySettings {\n    autoDeploy branchFilter watchPaths requireSignature hasWebhookSecret healthPath\n  }\n",
): (typeof documents)["\n  fragment DeploySettingsFields on DeploySettings {\n    autoDeploy branchFilter watchPaths requireSignature hasWebhookSecret healthPath\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ApplicationDeploySettings($id: ID!) {\n    application(id: $id) {\n      id\n      name\n      appName\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      deployWebhookUrl\n      deploySettings { ...DeploySettingsFields }\n    }\n  }\n",
): (typeof documents)["\n  query ApplicationDeploySettings($id: ID!) {\n    application(id: $id) {\n      id\n      name\n      appName\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      deployWebhookUrl\n      deploySettings { ...DeploySettingsFields }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RegenerateDeployToken($applicationId: ID!) { regenerateDeployToken(applicationId: $applicationId) }\n",
): (typeof documents)["\n  mutation RegenerateDeployToken($applicationId: ID!) { regenerateDeployToken(applicationId: $applicationId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RegenerateDeployWebhookSecret($applicationId: ID!) {\n    regenerateDeployWebhookSecret(applicationId: $applicationId)\n  }\n",
): (typeof documents)["\n  mutation RegenerateDeployWebhookSecret($applicationId: ID!) {\n    regenerateDeployWebhookSecret(applicationId: $applicationId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateDeploySettings($applicationId: ID!, $input: DeploySettingsInput!) {\n    updateDeploySettings(applicationId: $applicationId, input: $input) { ...DeploySettingsFields }\n  }\n",
): (typeof documents)["\n  mutation UpdateDeploySettings($applicationId: ID!, $input: DeploySettingsInput!) {\n    updateDeploySettings(applicationId: $applicationId, input: $input) { ...DeploySettingsFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment DeploymentRow on Deployment {\n    id status title description trigger commitSha errorMessage createdAt startedAt finishedAt\n  }\n",
): (typeof documents)["\n  fragment DeploymentRow on Deployment {\n    id status title description trigger commitSha errorMessage createdAt startedAt finishedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ApplicationDeployments($id: ID!, $organizationId: ID!) {\n    organization(id: $organizationId) { id viewerRole }\n    application(id: $id) {\n      id\n      name\n      appName\n      applicationStatus\n      health\n      healthCheckedAt\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      domains { id host https }\n      deployments(first: 50) { ...DeploymentRow }\n    }\n  }\n",
): (typeof documents)["\n  query ApplicationDeployments($id: ID!, $organizationId: ID!) {\n    organization(id: $organizationId) { id viewerRole }\n    application(id: $id) {\n      id\n      name\n      appName\n      applicationStatus\n      health\n      healthCheckedAt\n      sourceType\n      source { branch repo dockerImage }\n      project { id name }\n      environment { id name }\n      domains { id host https }\n      deployments(first: 50) { ...DeploymentRow }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DeploymentLogs($id: ID!, $first: Int!) {\n    application(id: $id) {\n      id\n      deployments(first: $first) { id logs { at level text } }\n    }\n  }\n",
): (typeof documents)["\n  query DeploymentLogs($id: ID!, $first: Int!) {\n    application(id: $id) {\n      id\n      deployments(first: $first) { id logs { at level text } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription DeploymentUpdated($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId\n      status\n      cursor\n      logLine { at level text }\n      deployment { ...DeploymentRow }\n    }\n  }\n",
): (typeof documents)["\n  subscription DeploymentUpdated($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId\n      status\n      cursor\n      logLine { at level text }\n      deployment { ...DeploymentRow }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...DeploymentRow }\n  }\n",
): (typeof documents)["\n  mutation DeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...DeploymentRow }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ...DeploymentRow } }\n",
): (typeof documents)["\n  mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ...DeploymentRow } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RedeployDeployment($id: ID!) { redeployDeployment(id: $id) { ...DeploymentRow } }\n",
): (typeof documents)["\n  mutation RedeployDeployment($id: ID!) { redeployDeployment(id: $id) { ...DeploymentRow } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ApplicationOrganization($id: ID!) {\n    application(id: $id) { id project { id organization { id name } } }\n  }\n",
): (typeof documents)["\n  query ApplicationOrganization($id: ID!) {\n    application(id: $id) { id project { id organization { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment DocsThemeFields on DocsTheme {\n    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet\n    updatedAt\n    docsRegistration { hostname syncedAt dns cnameTarget conflict }\n  }\n",
): (typeof documents)["\n  fragment DocsThemeFields on DocsTheme {\n    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet\n    updatedAt\n    docsRegistration { hostname syncedAt dns cnameTarget conflict }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DocsTheme($organizationId: ID!) {\n    docsTheme(organizationId: $organizationId) { ...DocsThemeFields }\n  }\n",
): (typeof documents)["\n  query DocsTheme($organizationId: ID!) {\n    docsTheme(organizationId: $organizationId) { ...DocsThemeFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation SetDocsTheme($organizationId: ID!, $input: DocsThemeInput!) {\n    setDocsTheme(organizationId: $organizationId, input: $input) { ...DocsThemeFields }\n  }\n",
): (typeof documents)["\n  mutation SetDocsTheme($organizationId: ID!, $input: DocsThemeInput!) {\n    setDocsTheme(organizationId: $organizationId, input: $input) { ...DocsThemeFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment PaymentServiceRow on PaymentGatewayService {\n    id name webhookUrl createdAt merchantCode merchantStatus checkoutUrl\n    paymentMethods { id label kind enabled }\n  }\n",
): (typeof documents)["\n  fragment PaymentServiceRow on PaymentGatewayService {\n    id name webhookUrl createdAt merchantCode merchantStatus checkoutUrl\n    paymentMethods { id label kind enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment PaymentRelayRow on PaymentRelay {\n    id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt\n  }\n",
): (typeof documents)["\n  fragment PaymentRelayRow on PaymentRelay {\n    id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ProjectPayments($projectId: ID!) {\n    project(id: $projectId) {\n      id name\n      paymentGatewayServices { ...PaymentServiceRow }\n    }\n  }\n",
): (typeof documents)["\n  query ProjectPayments($projectId: ID!) {\n    project(id: $projectId) {\n      id name\n      paymentGatewayServices { ...PaymentServiceRow }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query PaymentRelays($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      paymentGatewayServices { id relays(first: $first) { ...PaymentRelayRow } }\n    }\n  }\n",
): (typeof documents)["\n  query PaymentRelays($projectId: ID!, $first: Int!) {\n    project(id: $projectId) {\n      id\n      paymentGatewayServices { id relays(first: $first) { ...PaymentRelayRow } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query PaymentSigningKeys($projectId: ID!) {\n    project(id: $projectId) { id paymentGatewayServices { id signingKey } }\n  }\n",
): (typeof documents)["\n  query PaymentSigningKeys($projectId: ID!) {\n    project(id: $projectId) { id paymentGatewayServices { id signingKey } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreatePaymentService($projectId: ID!, $name: String!, $webhookUrl: String) {\n    createPaymentGatewayService(projectId: $projectId, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n",
): (typeof documents)["\n  mutation CreatePaymentService($projectId: ID!, $name: String!, $webhookUrl: String) {\n    createPaymentGatewayService(projectId: $projectId, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdatePaymentService($id: ID!, $name: String, $webhookUrl: String) {\n    updatePaymentGatewayService(id: $id, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n",
): (typeof documents)["\n  mutation UpdatePaymentService($id: ID!, $name: String, $webhookUrl: String) {\n    updatePaymentGatewayService(id: $id, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeletePaymentService($id: ID!) {\n    deletePaymentGatewayService(id: $id)\n  }\n",
): (typeof documents)["\n  mutation DeletePaymentService($id: ID!) {\n    deletePaymentGatewayService(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation SetPaymentMethod($serviceId: ID!, $method: String!, $enabled: Boolean!) {\n    setPaymentMethodEnabled(serviceId: $serviceId, method: $method, enabled: $enabled) { id label kind enabled }\n  }\n",
): (typeof documents)["\n  mutation SetPaymentMethod($serviceId: ID!, $method: String!, $enabled: Boolean!) {\n    setPaymentMethodEnabled(serviceId: $serviceId, method: $method, enabled: $enabled) { id label kind enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query PlanUsage($id: ID!) {\n    organization(id: $id) {\n      id name viewerRole\n      plan {\n        name features\n        quotas { projects applications databases domains }\n        usage { projects applications databases domains }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query PlanUsage($id: ID!) {\n    organization(id: $id) {\n      id name viewerRole\n      plan {\n        name features\n        quotas { projects applications databases domains }\n        usage { projects applications databases domains }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ProjectTree($after: String) {\n    projects(first: 100, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id name description createdAt\n          environments {\n            id name\n            applications {\n              id name appName applicationStatus health healthCheckedAt\n              domains { id host https }\n              deployments(first: 1) { id status title createdAt finishedAt }\n            }\n            databases { id name type user serviceHost createdAt }\n          }\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query ProjectTree($after: String) {\n    projects(first: 100, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges {\n        node {\n          id name description createdAt\n          environments {\n            id name\n            applications {\n              id name appName applicationStatus health healthCheckedAt\n              domains { id host https }\n              deployments(first: 1) { id status title createdAt finishedAt }\n            }\n            databases { id name type user serviceHost createdAt }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateEnvironment($projectId: ID!, $name: String!) { createEnvironment(projectId: $projectId, name: $name) { id name } }\n",
): (typeof documents)["\n  mutation CreateEnvironment($projectId: ID!, $name: String!) { createEnvironment(projectId: $projectId, name: $name) { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }\n",
): (typeof documents)["\n  mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { id name } }\n",
): (typeof documents)["\n  mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }\n",
): (typeof documents)["\n  mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { id name } }\n",
): (typeof documents)["\n  mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateDatabase($input: CreateDatabaseInput!) {\n    createDatabase(input: $input) { database { id name } applications { id } generatedPassword }\n  }\n",
): (typeof documents)["\n  mutation CreateDatabase($input: CreateDatabaseInput!) {\n    createDatabase(input: $input) { database { id name } applications { id } generatedPassword }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RotateDatabasePassword($id: ID!) {\n    rotateDatabasePassword(id: $id) { database { id } applications { id name } generatedPassword }\n  }\n",
): (typeof documents)["\n  mutation RotateDatabasePassword($id: ID!) {\n    rotateDatabasePassword(id: $id) { database { id } applications { id name } generatedPassword }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteDatabase($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id name } } }\n",
): (typeof documents)["\n  mutation DeleteDatabase($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment MemberRow on Member {\n    id role createdAt\n    user { id email name }\n    grants { id createdAt project { id name } application { id name } }\n  }\n",
): (typeof documents)["\n  fragment MemberRow on Member {\n    id role createdAt\n    user { id email name }\n    grants { id createdAt project { id name } application { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Settings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      viewerRole\n      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }\n      members { ...MemberRow }\n      invitations { id email role status createdAt expiresAt link }\n      projects(first: 100) { edges { node { id name } } }\n    }\n    agentToken { prefix createdAt expiresAt lastUsedAt }\n  }\n",
): (typeof documents)["\n  query Settings($id: ID!) {\n    organization(id: $id) {\n      id\n      name\n      viewerRole\n      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }\n      members { ...MemberRow }\n      invitations { id email role status createdAt expiresAt link }\n      projects(first: 100) { edges { node { id name } } }\n    }\n    agentToken { prefix createdAt expiresAt lastUsedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }\n",
): (typeof documents)["\n  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n",
): (typeof documents)["\n  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }\n",
): (typeof documents)["\n  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RevokeAgentToken { revokeAgentToken }\n",
): (typeof documents)["\n  mutation RevokeAgentToken { revokeAgentToken }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }\n",
): (typeof documents)["\n  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }\n",
): (typeof documents)["\n  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }\n",
): (typeof documents)["\n  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }\n",
): (typeof documents)["\n  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }\n",
): (typeof documents)["\n  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }\n",
): (typeof documents)["\n  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }\n",
): (typeof documents)["\n  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment SiteImportRow on SiteImport {\n    id name status errorStep errorMessage attempts createdAt updatedAt finishedAt\n    projectId applicationId databaseId domainId databaseType databaseServiceHost\n    project { id name }\n    application { id name appName }\n    database { id name }\n    domain { id host }\n  }\n",
): (typeof documents)["\n  fragment SiteImportRow on SiteImport {\n    id name status errorStep errorMessage attempts createdAt updatedAt finishedAt\n    projectId applicationId databaseId domainId databaseType databaseServiceHost\n    project { id name }\n    application { id name appName }\n    database { id name }\n    domain { id host }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query SiteImports($first: Int!, $offset: Int!) {\n    siteImports(first: $first, offset: $offset) {\n      totalCount\n      edges { node { ...SiteImportRow } }\n    }\n  }\n",
): (typeof documents)["\n  query SiteImports($first: Int!, $offset: Int!) {\n    siteImports(first: $first, offset: $offset) {\n      totalCount\n      edges { node { ...SiteImportRow } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription SiteImportUpdated($after: String) {\n    siteImportUpdated(after: $after) { importId status cursor siteImport { ...SiteImportRow } }\n  }\n",
): (typeof documents)["\n  subscription SiteImportUpdated($after: String) {\n    siteImportUpdated(after: $after) { importId status cursor siteImport { ...SiteImportRow } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ImportPrerequisites($id: ID!) {\n    organization(id: $id) {\n      id\n      gitProviders { id name type }\n      sshKeys { id name }\n      containerRegistries { id name }\n    }\n  }\n",
): (typeof documents)["\n  query ImportPrerequisites($id: ID!) {\n    organization(id: $id) {\n      id\n      gitProviders { id name type }\n      sshKeys { id name }\n      containerRegistries { id name }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query PreviewSiteImport($input: SiteImportInput!) {\n    previewSiteImport(input: $input) {\n      valid warnings errors\n      resources {\n        project { name }\n        database { type name }\n        application { name sourceType buildType }\n        domain { host }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query PreviewSiteImport($input: SiteImportInput!) {\n    previewSiteImport(input: $input) {\n      valid warnings errors\n      resources {\n        project { name }\n        database { type name }\n        application { name sourceType buildType }\n        domain { host }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation ImportSite($input: SiteImportInput!) {\n    importSite(input: $input) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n",
): (typeof documents)["\n  mutation ImportSite($input: SiteImportInput!) {\n    importSite(input: $input) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RetrySiteImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n",
): (typeof documents)["\n  mutation RetrySiteImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {\n    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }\n  }\n",
): (typeof documents)["\n  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {\n    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment WebhookEndpointRow on WebhookEndpoint {\n    webhookUuid url events isActive description creationDate updateDate\n  }\n",
): (typeof documents)["\n  fragment WebhookEndpointRow on WebhookEndpoint {\n    webhookUuid url events isActive description creationDate updateDate\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment WebhookDeliveryRow on WebhookDeliveryAttempt {\n    deliveryId event attempt success responseStatus errorMessage durationMs createdAt\n  }\n",
): (typeof documents)["\n  fragment WebhookDeliveryRow on WebhookDeliveryAttempt {\n    deliveryId event attempt success responseStatus errorMessage durationMs createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Webhooks($organizationId: ID!) {\n    webhooks(organizationId: $organizationId) { ...WebhookEndpointRow }\n    webhookEvents(organizationId: $organizationId) { name category description }\n  }\n",
): (typeof documents)["\n  query Webhooks($organizationId: ID!) {\n    webhooks(organizationId: $organizationId) { ...WebhookEndpointRow }\n    webhookEvents(organizationId: $organizationId) { name category description }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query WebhookDeliveries($organizationId: ID!, $webhookUuid: ID!, $limit: Int) {\n    webhookDeliveries(organizationId: $organizationId, webhookUuid: $webhookUuid, limit: $limit) {\n      ...WebhookDeliveryRow\n    }\n  }\n",
): (typeof documents)["\n  query WebhookDeliveries($organizationId: ID!, $webhookUuid: ID!, $limit: Int) {\n    webhookDeliveries(organizationId: $organizationId, webhookUuid: $webhookUuid, limit: $limit) {\n      ...WebhookDeliveryRow\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateWebhook($organizationId: ID!, $input: CreateWebhookInput!) {\n    createWebhook(organizationId: $organizationId, input: $input) { secret webhook { ...WebhookEndpointRow } }\n  }\n",
): (typeof documents)["\n  mutation CreateWebhook($organizationId: ID!, $input: CreateWebhookInput!) {\n    createWebhook(organizationId: $organizationId, input: $input) { secret webhook { ...WebhookEndpointRow } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateWebhook($organizationId: ID!, $webhookUuid: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, input: $input) { ...WebhookEndpointRow }\n  }\n",
): (typeof documents)["\n  mutation UpdateWebhook($organizationId: ID!, $webhookUuid: ID!, $input: UpdateWebhookInput!) {\n    updateWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, input: $input) { ...WebhookEndpointRow }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    deleteWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid)\n  }\n",
): (typeof documents)["\n  mutation DeleteWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    deleteWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RegenerateWebhookSecret($organizationId: ID!, $webhookUuid: ID!) {\n    regenerateWebhookSecret(organizationId: $organizationId, webhookUuid: $webhookUuid) { secret }\n  }\n",
): (typeof documents)["\n  mutation RegenerateWebhookSecret($organizationId: ID!, $webhookUuid: ID!) {\n    regenerateWebhookSecret(organizationId: $organizationId, webhookUuid: $webhookUuid) { secret }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation TestWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    testWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid) {\n      deliveryId\n      firstAttempt { ...WebhookDeliveryRow }\n    }\n  }\n",
): (typeof documents)["\n  mutation TestWebhook($organizationId: ID!, $webhookUuid: ID!) {\n    testWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid) {\n      deliveryId\n      firstAttempt { ...WebhookDeliveryRow }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation RedeliverWebhook($organizationId: ID!, $webhookUuid: ID!, $deliveryId: String!) {\n    redeliverWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, deliveryId: $deliveryId)\n  }\n",
): (typeof documents)["\n  mutation RedeliverWebhook($organizationId: ID!, $webhookUuid: ID!, $deliveryId: String!) {\n    redeliverWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, deliveryId: $deliveryId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Viewer {\n    viewer {\n      user { id email name twoFactorEnabled }\n      activeOrganization { id name }\n      role\n    }\n    organizations { id name viewerRole plan { name } }\n  }\n",
): (typeof documents)["\n  query Viewer {\n    viewer {\n      user { id email name twoFactorEnabled }\n      activeOrganization { id name }\n      role\n    }\n    organizations { id name viewerRole plan { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation SetActiveOrganization($id: ID!) {\n    setActiveOrganization(id: $id) { activeOrganization { id } }\n  }\n",
): (typeof documents)["\n  mutation SetActiveOrganization($id: ID!) {\n    setActiveOrganization(id: $id) { activeOrganization { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name }\n  }\n",
): (typeof documents)["\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> =
  TDocumentNode extends DocumentNode<infer TType, any> ? TType : never;
