// bloxorz.cpp - plain contest BFS for POJ 3322 "Bloxorz I" (baseline).
// int distance per (row, col, orientation), a FIFO of structs.
#include <cstdio>
#include <queue>
#include <string>
#include <vector>
using namespace std;

struct St {
    int r, c, o; // o: 0 standing, 1 lying right, 2 lying down
};

int n, m;
vector<string> g;

bool ok(int r, int c, int o)
{
    int r2 = r + (o == 2), c2 = c + (o == 1);
    if (r < 0 || c < 0 || r2 >= n || c2 >= m)
        return false;
    if (g[r][c] == '#' || g[r2][c2] == '#')
        return false;
    if (o == 0 && g[r][c] == 'E')
        return false;
    return true;
}

// {dr, dc, new o} for U D L R from each orientation
const int mv[3][4][3] = {
    {{-2, 0, 2}, {1, 0, 2}, {0, -2, 1}, {0, 1, 1}},
    {{-1, 0, 1}, {1, 0, 1}, {0, -1, 0}, {0, 2, 0}},
    {{-1, 0, 0}, {2, 0, 0}, {0, -1, 2}, {0, 1, 2}},
};

int main()
{
    static char line[1 << 16];
    while (scanf("%d %d", &n, &m) == 2 && (n || m)) {
        g.assign(n, string());
        for (int i = 0; i < n; i++) {
            string s;
            s.reserve(m);
            int ch;
            while ((ch = getchar()) != EOF && ch != '#' && ch != '.' &&
                   ch != 'E' && ch != 'X' && ch != 'O')
                ;
            s.push_back((char)ch);
            while ((int)s.size() < m)
                s.push_back((char)getchar());
            g[i] = s;
        }
        (void)line;
        St st = {-1, -1, 0};
        int gr = 0, gc = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                if (g[i][j] == 'X') {
                    if (st.r < 0)
                        st = {i, j, 0};
                    else
                        st.o = (i == st.r) ? 1 : 2;
                }
                if (g[i][j] == 'O')
                    gr = i, gc = j;
            }
        vector<int> dist((size_t)n * m * 3, -1);
        auto id = [&](int r, int c, int o) {
            return ((size_t)r * m + c) * 3 + o;
        };
        queue<St> q;
        q.push(st);
        dist[id(st.r, st.c, st.o)] = 0;
        int ans = -1;
        while (!q.empty()) {
            St s = q.front();
            q.pop();
            int d = dist[id(s.r, s.c, s.o)];
            if (s.o == 0 && s.r == gr && s.c == gc) {
                ans = d;
                break;
            }
            for (int k = 0; k < 4; k++) {
                St t = {s.r + mv[s.o][k][0], s.c + mv[s.o][k][1],
                        mv[s.o][k][2]};
                if (!ok(t.r, t.c, t.o) || dist[id(t.r, t.c, t.o)] >= 0)
                    continue;
                dist[id(t.r, t.c, t.o)] = d + 1;
                q.push(t);
            }
        }
        if (ans < 0)
            printf("Impossible\n");
        else
            printf("%d\n", ans);
    }
    return 0;
}
