// sokoban.cpp - plain BFS for the seed sokoban problem (baseline): X
// player, * box, @ goal, # wall; the fewest player steps or -1. A state is
// the player's square and the sorted box squares packed in 64 bits; a
// std::set of visited states, a FIFO of structs.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <queue>
#include <set>
#include <string>
#include <vector>
using namespace std;

int n, m;
vector<string> g;

uint64_t pack(int p, vector<int> bx)
{
    sort(bx.begin(), bx.end());
    uint64_t k = (uint64_t)p;
    for (int x : bx)
        k = k * 4096 + (uint64_t)x;
    return k;
}

struct St {
    int p;
    vector<int> bx;
    int d;
};

int main()
{
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (scanf("%d %d", &n, &m) == 2) {
        g.assign(n, string());
        static char buf[4096];
        for (int i = 0; i < n; i++) {
            scanf("%s", buf);
            g[i] = buf;
        }
        int p = 0;
        vector<int> bx, goal;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                char ch = g[i][j];
                if (ch == 'X')
                    p = i * m + j;
                if (ch == '*')
                    bx.push_back(i * m + j);
                if (ch == '@')
                    goal.push_back(i * m + j);
            }
        sort(goal.begin(), goal.end());
        set<uint64_t> seen;
        queue<St> q;
        seen.insert(pack(p, bx));
        q.push({p, bx, 0});
        int ans = -1;
        while (!q.empty()) {
            St s = q.front();
            q.pop();
            vector<int> sb = s.bx;
            sort(sb.begin(), sb.end());
            bool done = true;
            for (int x : sb)
                done = done && binary_search(goal.begin(), goal.end(), x);
            if (done) {
                ans = s.d;
                break;
            }
            int r = s.p / m, c = s.p % m;
            for (int k = 0; k < 4; k++) {
                int nr = r + dr[k], nc = c + dc[k];
                if (nr < 0 || nc < 0 || nr >= n || nc >= m || g[nr][nc] == '#')
                    continue;
                int np = nr * m + nc;
                vector<int> nb = s.bx;
                auto it = find(nb.begin(), nb.end(), np);
                if (it != nb.end()) {
                    int br = nr + dr[k], bc = nc + dc[k];
                    if (br < 0 || bc < 0 || br >= n || bc >= m ||
                        g[br][bc] == '#' ||
                        find(nb.begin(), nb.end(), br * m + bc) != nb.end())
                        continue;
                    *it = br * m + bc;
                }
                if (seen.insert(pack(np, nb)).second)
                    q.push({np, nb, s.d + 1});
            }
        }
        printf("%d\n", ans);
    }
    return 0;
}
