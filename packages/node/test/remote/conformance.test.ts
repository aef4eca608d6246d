/**
 * One conformance suite, run over each transport a client can use: gRPC (`@grpc/grpc-js`)
 * and WebSocket (the browser transport, driven here by the `ws` package). Every scenario
 * talks to a real hook server on 127.0.0.1.
 */
import { createWebSocketTransport } from "@a3s-lab/hooks-browser";
import { describe } from "vitest";
import { WebSocket } from "ws";
import { createGrpcTransport } from "../../src/grpc/grpc-transport.js";
import { defineConformanceSuite, type TransportKit } from "./conformance.js";

const kits: TransportKit[] = [
  { name: "gRPC", fieldNames: "proto", create: (options) => createGrpcTransport(options) },
  {
    name: "WebSocket",
    fieldNames: "json",
    create: (options) => createWebSocketTransport({ ...options, WebSocket }),
  },
];

describe.each(kits)("the hook server over $name", (kit) => defineConformanceSuite(kit));
