/**
 * Look-ahead on a resolver's `info`: which sub-fields the operation selects under the field being resolved, so
 * that a loader can fetch children with their parents in one statement per level (issue 15) instead of one
 * DataLoader promise per item. Inline fragments and fragment spreads are followed whatever their type condition
 * (selecting a field too many only fetches more, never less).
 */
import {
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  getArgumentValues,
  getNamedType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";

/** A selected sub-field: every node selecting it (aliases included) and its definition. */
export interface SelectedField {
  nodes: FieldNode[];
  definition: GraphQLField<unknown, unknown>;
}

const memo = new WeakMap<readonly FieldNode[], Map<string, FieldNode[]>>();

function collect(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, out: Map<string, FieldNode[]>): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const nodes = out.get(selection.name.value);
      if (nodes) nodes.push(selection);
      else out.set(selection.name.value, [selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collect(selection.selectionSet, info, out);
    } else {
      collect(info.fragments[selection.name.value]?.selectionSet, info, out);
    }
  }
}

/**
 * The sub-field `name` of the items of the field being resolved (e.g. `deployments` under `applications`), or null
 * when the operation does not select it (or the field's type has no such field).
 */
export function selectedField(info: GraphQLResolveInfo, name: string): SelectedField | null {
  let fields = memo.get(info.fieldNodes);
  if (!fields) {
    fields = new Map();
    for (const node of info.fieldNodes) collect(node.selectionSet, info, fields);
    memo.set(info.fieldNodes, fields);
  }
  const nodes = fields.get(name);
  const type = getNamedType(info.returnType);
  const definition = isObjectType(type) ? type.getFields()[name] : undefined;
  return nodes && definition ? { nodes, definition: definition as GraphQLField<unknown, unknown> } : null;
}

/**
 * The arguments of every selection of `field` (one entry per distinct node), coerced with the request's variables.
 * @throws GraphQLError when an argument is invalid (as execution itself would).
 */
export function argumentsOf(field: SelectedField, info: GraphQLResolveInfo): Array<Record<string, unknown>> {
  return field.nodes.map((node) => getArgumentValues(field.definition, node, info.variableValues));
}
