// SPDX-License-Identifier: GPL-2.0
/*
 * xo-select: a /dev/kxo client written the way upstream kxo's xo-user is written since it
 * gained poll support: one loop that select()s on standard input and the device, reads
 * records when the device is readable, draws the boards, and reacts to keys (p: stop/start
 * drawing, q: quit). It is a test of the device's poll from C, with no Rust in between
 * (docs/protocol.md, "/dev/kxo", for the record layout).
 *
 *   xo-select [DEVICE] < keys      prints the boards, then one summary line:
 *   xo-select: records=N boards=M games=G key=q seconds=S
 * Exit status: 0 when it quit on the key 'q' having read at least one record, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#define RECORD_SIZE 48
#define MAX_GAMES 64

/* The fields of a version-2 record this client draws (native endianness). */
struct rec {
	uint16_t version, size, game;
	uint8_t move_count, state;
	uint32_t round, board;
};

static void decode(const unsigned char *b, struct rec *r)
{
	memcpy(&r->version, b + 0, 2);
	memcpy(&r->size, b + 2, 2);
	memcpy(&r->game, b + 4, 2);
	r->move_count = b[6];
	r->state = b[7];
	memcpy(&r->round, b + 8, 4);
	memcpy(&r->board, b + 12, 4);
}

static void draw(const struct rec *r)
{
	static const char cell[4] = { ' ', 'O', 'X', '?' };
	int row, col;

	printf("#%u round %u ply %u\n", r->game, r->round, r->move_count);
	for (row = 0; row < 4; row++) {
		for (col = 0; col < 4; col++) {
			int i = row * 4 + col;
			putchar(cell[(r->board >> (2 * i)) & 3]);
			putchar(col < 3 ? '|' : '\n');
		}
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/kxo";
	unsigned char buf[RECORD_SIZE * 16];
	unsigned long records = 0, boards = 0;
	int seen[MAX_GAMES] = { 0 }, games = 0, drawing = 1, key = 0, fd, i;
	struct timespec t0, t1;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: xo-select [DEVICE] (keys on stdin: p toggles drawing, q quits)\n");
		return 0;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "xo-select: %s: %s\n", path, strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!key) {
		fd_set set;
		ssize_t n;

		FD_ZERO(&set);
		FD_SET(STDIN_FILENO, &set);
		FD_SET(fd, &set);
		if (select(fd + 1, &set, NULL, NULL, NULL) < 0) {
			if (errno == EINTR)
				continue;
			perror("xo-select: select");
			return 1;
		}
		if (FD_ISSET(STDIN_FILENO, &set)) {
			char c;

			n = read(STDIN_FILENO, &c, 1);
			if (n <= 0)
				break; /* end of input: quit without the key */
			if (c == 'p')
				drawing = !drawing;
			else if (c == 'q')
				key = 'q';
		}
		if (FD_ISSET(fd, &set)) {
			n = read(fd, buf, sizeof(buf));
			if (n < 0) {
				perror("xo-select: read");
				return 1;
			}
			for (i = 0; i + RECORD_SIZE <= n; i += RECORD_SIZE) {
				struct rec r;

				decode(buf + i, &r);
				if (r.version != 2 || r.size != RECORD_SIZE) {
					fprintf(stderr, "xo-select: bad record (version %u size %u)\n",
						r.version, r.size);
					return 1;
				}
				records++;
				if (r.game < MAX_GAMES && !seen[r.game]) {
					seen[r.game] = 1;
					games++;
				}
				if (drawing) {
					draw(&r);
					boards++;
				}
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	printf("xo-select: records=%lu boards=%lu games=%d key=%c seconds=%ld\n", records, boards,
	       games, key ? key : '-', (long)(t1.tv_sec - t0.tv_sec));
	return key == 'q' && records > 0 ? 0 : 1;
}
