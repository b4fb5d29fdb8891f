/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    db?: import('../db/pool.ts').Queryable;
  }
}
