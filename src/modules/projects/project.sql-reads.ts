/**
 * Compiled-read SQL of schema/projects.graphql (src/modules/sql-reads.ts): the active organization's visible
 * projects as a connection, and projects' and environments' columns and children, with the loaders' visibility
 * and order (project.loaders.ts): projects visible to the caller by id, environments by id (an environment's
 * applications are compiled by the applications module, which owns their table).
 */
import { decodeCursor } from "../../shared/pagination.ts";
import { visibleProjectSql } from "../access/index.ts";
import { column, connectionSql, pageSizeArg, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Query.projects, Project and Environment. */
export const projectSqlReads: SqlReadTypes = {
  Query: {
    projects: (field) => {
      const { compiler } = field;
      const first = pageSizeArg(field, "first", 100);
      const organizationId = compiler.caller.organizationId;
      const access = organizationId ? compiler.caller.orgs.get(organizationId) : undefined;
      if (first === null || !organizationId || !access) return null;
      let afterId: string | null = null;
      try {
        afterId = typeof field.args.after === "string" ? decodeCursor(field.args.after) : null;
      } catch {
        return null;
      }
      const visible = visibleProjectSql(new Map([[organizationId, access]]), "p.organization_id", "p.id");
      const where = compiler.condition(visible);
      return connectionSql(field, { table: "projects", where, first, afterId, nodeType: "Project" });
    },
  },
  Project: {
    id: column("id"),
    name: column("name"),
    description: column("description"),
    createdAt: timestamp("created_at"),
    environments: ({ compiler, alias, nodes }) => {
      const e = compiler.alias();
      return compiler.list(
        "Environment",
        e,
        nodes,
        `from environments ${e} where ${e}.project_id = ${alias}.id`,
        `${e}.id`,
      );
    },
  },
  Environment: {
    id: column("id"),
    name: column("name"),
    createdAt: timestamp("created_at"),
  },
};
