/**
 * Response bodies of the agent API (spec: Endpoints → Agent API (read-only)): exactly the documented fields,
 * in the documented order, shaped from the `data` of the GraphQL operations in agent.rest.ts (`id` renamed to
 * `projectId`, `environmentId`, `applicationId`, `deploymentId`). Timestamps are ISO 8601 strings (the
 * `DateTime` scalar's serialisation).
 */

/** One application in GET /api/agent/projects. */
export interface AgentProjectApplication {
  applicationId: string;
  name: string;
  appName: string;
  applicationStatus: string | null;
  createdAt: string;
}

/** One project of GET /api/agent/projects, with its environments and their applications. */
export interface AgentProject {
  projectId: string;
  name: string;
  description: string | null;
  createdAt: string;
  environments: Array<{ environmentId: string; name: string; applications: AgentProjectApplication[] }>;
}

/** Body of GET /api/agent/application. */
export interface AgentApplication {
  applicationId: string;
  name: string;
  appName: string;
  applicationStatus: string | null;
  buildType: string | null;
  sourceType: string | null;
  createdAt: string;
  project: { projectId: string; name: string };
  environment: { environmentId: string; name: string };
  domains: Array<{ host: string; port: number | null; https: boolean | null }>;
}

/** One deployment of GET /api/agent/deployments (newest first). */
export interface AgentDeployment {
  deploymentId: string;
  status: string | null;
  title: string;
  description: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** `data` of the AgentProjects operation (all pages merged). */
export interface AgentProjectsData {
  projects: {
    edges: Array<{
      node: {
        id: string;
        name: string;
        description: string | null;
        createdAt: string;
        environments: Array<{
          id: string;
          name: string;
          applications: Array<{
            id: string;
            name: string;
            appName: string;
            applicationStatus: string | null;
            createdAt: string;
          }>;
        }>;
      };
    }>;
  };
}

/** `data` of the AgentApplication operation. */
export interface AgentApplicationData {
  application: {
    id: string;
    name: string;
    appName: string;
    applicationStatus: string | null;
    buildType: string | null;
    sourceType: string | null;
    createdAt: string;
    project: { id: string; name: string };
    environment: { id: string; name: string };
    domains: Array<{ host: string; port: number | null; https: boolean | null }>;
  };
}

/** `data` of the AgentDeployments operation. */
export interface AgentDeploymentsData {
  application: {
    deployments: Array<{
      id: string;
      status: string | null;
      title: string;
      description: string | null;
      createdAt: string;
      startedAt: string | null;
      finishedAt: string | null;
    }>;
  };
}

/** Shapes GET /api/agent/projects. */
export function toAgentProjects(data: AgentProjectsData): AgentProject[] {
  return data.projects.edges.map(({ node: p }) => ({
    projectId: p.id,
    name: p.name,
    description: p.description,
    createdAt: p.createdAt,
    environments: p.environments.map((e) => ({
      environmentId: e.id,
      name: e.name,
      applications: e.applications.map((a) => ({
        applicationId: a.id,
        name: a.name,
        appName: a.appName,
        applicationStatus: a.applicationStatus,
        createdAt: a.createdAt,
      })),
    })),
  }));
}

/** Shapes GET /api/agent/application. */
export function toAgentApplication({ application: a }: AgentApplicationData): AgentApplication {
  return {
    applicationId: a.id,
    name: a.name,
    appName: a.appName,
    applicationStatus: a.applicationStatus,
    buildType: a.buildType,
    sourceType: a.sourceType,
    createdAt: a.createdAt,
    project: { projectId: a.project.id, name: a.project.name },
    environment: { environmentId: a.environment.id, name: a.environment.name },
    domains: a.domains.map((d) => ({ host: d.host, port: d.port, https: d.https })),
  };
}

/** Shapes GET /api/agent/deployments. */
export function toAgentDeployments({ application }: AgentDeploymentsData): AgentDeployment[] {
  return application.deployments.map((d) => ({
    deploymentId: d.id,
    status: d.status,
    title: d.title,
    description: d.description,
    createdAt: d.createdAt,
    startedAt: d.startedAt,
    finishedAt: d.finishedAt,
  }));
}
