"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/events";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let shared: AppSocket | null = null;
/** How many mounted components want each room; a room is left when its count reaches 0. */
const roomRefs = new Map<string, number>();
const statusListeners = new Set<() => void>();
/** Rooms the server has acknowledged on the current connection; cleared on disconnect. */
const joinedRooms = new Set<string>();
/** Per room: who wants to hear that the server (re)acknowledged it. */
const joinListeners = new Map<string, Set<(ok: boolean) => void>>();

/**
 * Whether this tab may open the socket: only for a signed-in user whose one-time password is changed (the server
 * refuses the handshake before that, and socket.io would retry it, a 403 at each attempt, for as long as the page stays).
 */
export function socketMayConnect(user: { mustChangePassword: boolean } | null): boolean {
  return user !== null && !user.mustChangePassword;
}

let permitted = false;

/** Set by the UserProvider from the session's user: connects the shared socket once it is allowed, never before. */
export function setSocketPermitted(allowed: boolean): void {
  permitted = allowed;
  if (allowed && shared && !shared.connected && !shared.active) shared.connect();
  if (!allowed && shared?.active) shared.disconnect();
}

function notifyStatus() {
  for (const listener of statusListeners) listener();
}

/** Ask the server to join `room`; listeners hear the ack, so they can refetch what they missed. */
function subscribe(socket: AppSocket, room: string) {
  socket.emit("subscribe", room, (ok: boolean) => {
    // A late ack for a room left meanwhile, or from a dead connection, is not news.
    if (!roomRefs.has(room) || !socket.connected) return;
    if (ok) joinedRooms.add(room);
    for (const listener of joinListeners.get(room) ?? []) listener(ok);
  });
}

/** The one socket.io connection of this tab, to the page's own origin. */
export function getSocket(): AppSocket {
  if (shared) return shared;
  const socket: AppSocket = io({ path: "/socket.io", autoConnect: permitted });
  // "connect" fires again after every reconnection: rooms are per connection, so join them again.
  socket.on("connect", () => {
    for (const room of roomRefs.keys()) subscribe(socket, room);
    notifyStatus();
  });
  socket.on("disconnect", () => {
    joinedRooms.clear();
    notifyStatus();
  });
  shared = socket;
  return socket;
}

function joinRoom(socket: AppSocket, room: string) {
  const count = roomRefs.get(room) ?? 0;
  roomRefs.set(room, count + 1);
  if (count === 0 && socket.connected) subscribe(socket, room);
}

function leaveRoom(socket: AppSocket, room: string) {
  const count = (roomRefs.get(room) ?? 1) - 1;
  if (count > 0) {
    roomRefs.set(room, count);
    return;
  }
  roomRefs.delete(room);
  joinedRooms.delete(room);
  if (socket.connected) socket.emit("unsubscribe", room);
}

/**
 * Subscribe to `room` while mounted and call `handler` for `event`.
 * Events of every joined room share one listener list, so handlers filter by id themselves.
 * `onJoined` runs each time the server acknowledges the room: first join and after every reconnect
 * (events sent while disconnected are lost, so this is where a caller refetches its history).
 */
export function useSocketRoom<E extends keyof ServerToClientEvents>(
  room: string | null,
  event: E,
  handler: ServerToClientEvents[E],
  onJoined?: (ok: boolean) => void,
): void {
  const handlerRef = useRef(handler);
  const joinedRef = useRef(onJoined);
  useEffect(() => {
    handlerRef.current = handler;
    joinedRef.current = onJoined;
  });

  useEffect(() => {
    if (room === null) return;
    const socket = getSocket();
    const onAck = (ok: boolean) => joinedRef.current?.(ok);
    const listeners = joinListeners.get(room) ?? new Set();
    listeners.add(onAck);
    joinListeners.set(room, listeners);
    // Already joined by another component: this one still needs its "joined" moment.
    if (joinedRooms.has(room)) queueMicrotask(() => onAck(true));
    joinRoom(socket, room);
    const listener = ((...args: Parameters<ServerToClientEvents[E]>) => {
      (handlerRef.current as (...a: Parameters<ServerToClientEvents[E]>) => void)(...args);
    }) as ServerToClientEvents[E];
    // socket.io's typed `on` cannot follow a generic event name, hence the widening casts.
    (socket.on as (ev: E, fn: ServerToClientEvents[E]) => void)(event, listener);
    return () => {
      (socket.off as (ev: E, fn: ServerToClientEvents[E]) => void)(event, listener);
      listeners.delete(onAck);
      if (listeners.size === 0) joinListeners.delete(room);
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
