/**
 * Base Objection model: TypeID primary keys assigned on insert, timestamps as Date objects.
 */
import { Model } from "objection";
import { type IdKind, newId } from "./ids.ts";

/** Base class of every Skiff model. Subclasses set `tableName` and `idKind`. */
export class BaseModel extends Model {
  /** Entity kind naming the id prefix (see src/db/ids.ts). */
  static idKind: IdKind;
  declare id: string;

  override $beforeInsert(): void {
    if (!this.id) this.id = newId((this.constructor as typeof BaseModel).idKind);
  }
}
