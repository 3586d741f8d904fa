/* eslint-disable */
export * from "./gql.ts";
