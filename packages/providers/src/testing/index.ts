export {
  createWireServer,
  type RecordedRequest,
  type WireReply,
  type WireResponder,
  type WireServer,
} from './wire-server.js';
