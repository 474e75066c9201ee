"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/events";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let shared: AppSocket | null = null;
/** How many mounted components want each room; a room is left when its count reaches 0. */
const roomRefs = new Map<string, number>();
const statusListeners = new Set<() => void>();

function notifyStatus() {
  for (const listener of statusListeners) listener();
}

/** The one socket.io connection of this tab, to the page's own origin. */
export function getSocket(): AppSocket {
  if (shared) return shared;
  const socket: AppSocket = io({ path: "/socket.io", autoConnect: true });
  // "connect" fires again after every reconnection: rooms are per connection, so join them again.
  socket.on("connect", () => {
    for (const room of roomRefs.keys()) socket.emit("subscribe", room);
    notifyStatus();
  });
  socket.on("disconnect", notifyStatus);
  shared = socket;
  return socket;
}

function joinRoom(socket: AppSocket, room: string) {
  const count = roomRefs.get(room) ?? 0;
  roomRefs.set(room, count + 1);
  if (count === 0 && socket.connected) socket.emit("subscribe", room);
}

function leaveRoom(socket: AppSocket, room: string) {
  const count = (roomRefs.get(room) ?? 1) - 1;
  if (count > 0) {
    roomRefs.set(room, count);
    return;
  }
  roomRefs.delete(room);
  if (socket.connected) socket.emit("unsubscribe", room);
}

/**
 * Subscribe to `room` while mounted and call `handler` for `event`.
 * Events of every joined room share one listener list, so handlers filter by id themselves.
 */
export function useSocketRoom<E extends keyof ServerToClientEvents>(
  room: string | null,
  event: E,
  handler: ServerToClientEvents[E],
): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (room === null) return;
    const socket = getSocket();
    joinRoom(socket, room);
    const listener = ((...args: Parameters<ServerToClientEvents[E]>) => {
      (handlerRef.current as (...a: Parameters<ServerToClientEvents[E]>) => void)(...args);
    }) as ServerToClientEvents[E];
    // socket.io's typed `on` cannot follow a generic event name, hence the widening casts.
    (socket.on as (ev: E, fn: ServerToClientEvents[E]) => void)(event, listener);
    return () => {
      (socket.off as (ev: E, fn: ServerToClientEvents[E]) => void)(event, listener);
      leaveRoom(socket, room);
    };
  }, [room, event]);
}

function subscribeStatus(listener: () => void) {
  statusListeners.add(listener);
  getSocket();
  return () => {
    statusListeners.delete(listener);
  };
}

/** true while the shared socket is connected (false during server render). */
export function useSocketConnected(): boolean {
  return useSyncExternalStore(
    subscribeStatus,
    () => shared?.connected ?? false,
    () => false,
  );
}
