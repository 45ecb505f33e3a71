// holedox.cpp - plain BFS for POJ 1324 "Holedox Moving" (baseline). The
// classic encoding: head square plus 2 bits per body link, a bool visited
// array vis[20][20][1 << 14], a FIFO of structs.
#include <cstdio>
#include <cstring>
#include <queue>
using namespace std;

int R, C, L;
bool stone[20][20];
static bool vis[20][20][1 << 14];
const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};

struct St {
    int r, c, code, d;
};

int main()
{
    int cs = 0;
    while (scanf("%d %d %d", &R, &C, &L) == 3 && (R || C || L)) {
        int br[8], bc[8];
        for (int i = 0; i < L; i++) {
            scanf("%d %d", &br[i], &bc[i]);
            br[i]--, bc[i]--;
        }
        memset(stone, 0, sizeof stone);
        int k;
        scanf("%d", &k);
        for (int i = 0; i < k; i++) {
            int r, c;
            scanf("%d %d", &r, &c);
            stone[r - 1][c - 1] = true;
        }
        // link i: direction from body cell i to cell i+1
        int code = 0;
        for (int i = L - 2; i >= 0; i--) {
            int dir = 0;
            for (int d = 0; d < 4; d++)
                if (br[i] + dr[d] == br[i + 1] && bc[i] + dc[d] == bc[i + 1])
                    dir = d;
            code = code * 4 + dir;
        }
        memset(vis, 0, sizeof vis);
        queue<St> q;
        q.push({br[0], bc[0], code, 0});
        vis[br[0]][bc[0]][code] = true;
        int ans = -1, mask = (1 << (2 * (L - 1))) - 1;
        while (!q.empty()) {
            St s = q.front();
            q.pop();
            if (s.r == 0 && s.c == 0) {
                ans = s.d;
                break;
            }
            int cr[8], cc[8];
            cr[0] = s.r, cc[0] = s.c;
            for (int i = 1, x = s.code; i < L; i++, x >>= 2) {
                cr[i] = cr[i - 1] + dr[x & 3];
                cc[i] = cc[i - 1] + dc[x & 3];
            }
            for (int d = 0; d < 4; d++) {
                int nr = s.r + dr[d], nc = s.c + dc[d];
                if (nr < 0 || nc < 0 || nr >= R || nc >= C || stone[nr][nc])
                    continue;
                bool hit = false;
                for (int i = 0; i < L && !hit; i++)
                    hit = cr[i] == nr && cc[i] == nc;
                if (hit)
                    continue;
                // the old head lies opposite to d from the new head
                int back = d ^ 1;
                int nc2 = ((s.code << 2) | back) & mask;
                if (vis[nr][nc][nc2])
                    continue;
                vis[nr][nc][nc2] = true;
                q.push({nr, nc, nc2, s.d + 1});
            }
        }
        printf("Case %d: %d\n", ++cs, ans);
    }
    return 0;
}
