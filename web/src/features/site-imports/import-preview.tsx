/** What `previewSiteImport` reports before anything is created: the resources, warnings and errors. */
import type { PreviewSiteImportQuery } from "../../gql/graphql.ts";

/** What a preview reports: resources, warnings and errors. */
export function PreviewPanel({ preview }: { preview: PreviewSiteImportQuery["previewSiteImport"] }) {
  const r = preview.resources;
  return (
    <section className="preview" aria-label="Preview" data-testid="preview">
      <h3>{preview.valid ? "✓ Preview: ready to import" : "✗ Preview: this import would fail"}</h3>
      <ul>
        <li>Project “{r.project.name}” with its production environment</li>
        {r.database && (
          <li>
            Database “{r.database.name}” ({r.database.type})
          </li>
        )}
        <li>
          Application “{r.application.name}” from {r.application.sourceType}
          {r.application.buildType ? `, built with ${r.application.buildType}` : ""}
        </li>
        {r.domain && <li>Domain {r.domain.host}</li>}
      </ul>
      {preview.errors.length > 0 && (
        <div role="alert">
          <h4>Errors</h4>
          <ul>
            {preview.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.warnings.length > 0 && (
        <div>
          <h4>Warnings</h4>
          <ul>
            {preview.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
