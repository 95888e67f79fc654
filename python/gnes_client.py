"""Standard GNES load client: one gRPC StreamCall carrying `docs` documents of `doc_bytes`
bytes in batches of `batch_size`. Uses the generated stub directly, because CLIClient's
constructor changed at 0.0.44 and from then on it swallows errors. Prints one JSON line;
exits non-zero when the call fails or fewer responses than requests come back."""
import argparse
import json
import sys
import time

import grpc
from gnes.proto import RequestGenerator, gnes_pb2_grpc


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--host', default='127.0.0.1')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--docs', type=int, required=True)
    p.add_argument('--batch-size', type=int, required=True)
    p.add_argument('--doc-bytes', type=int, required=True)
    p.add_argument('--timeout', type=float, required=True)
    a = p.parse_args()

    data = [b'a' * a.doc_bytes for _ in range(a.docs)]
    requests = -(-a.docs // a.batch_size)
    unlimited = [('grpc.max_send_message_length', -1), ('grpc.max_receive_message_length', -1)]
    with grpc.insecure_channel('%s:%d' % (a.host, a.port), options=unlimited) as channel:
        grpc.channel_ready_future(channel).result(timeout=a.timeout)
        stub = gnes_pb2_grpc.GnesRPCStub(channel)
        started = time.time()
        responses = 0
        try:
            for _ in stub.StreamCall(RequestGenerator.index(data, a.batch_size), timeout=a.timeout):
                responses += 1
        except grpc.RpcError as e:
            sys.stderr.write('StreamCall failed after %d of %d responses: %s %s\n'
                             % (responses, requests, e.code(), e.details()))
            return 3
        seconds = time.time() - started
    print(json.dumps({'requests': requests, 'responses': responses,
                      'startedAt': started, 'seconds': seconds}))
    if responses != requests:
        sys.stderr.write('expected %d responses, got %d\n' % (requests, responses))
        return 4
    return 0


if __name__ == '__main__':
    sys.exit(main())
