// curling.cpp - plain BFS for POJ 3009 "Curling 2.0" (baseline).
// A state is the stone's square plus the board as it stands; a std::set
// of visited states, a FIFO of structs, at most 10 throws.
#include <cstdio>
#include <queue>
#include <set>
#include <string>
using namespace std;

struct St {
    int r, c, d;
    string b; // the board, one char per square
};

int main()
{
    int w, h;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (scanf("%d %d", &w, &h) == 2 && (w || h)) {
        string b(w * h, 0);
        int sr = 0, sc = 0;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                int v;
                scanf("%d", &v);
                b[i * w + j] = (char)v;
                if (v == 2)
                    sr = i, sc = j, b[i * w + j] = 0;
            }
        set<pair<int, string>> seen;
        queue<St> q;
        q.push({sr, sc, 0, b});
        seen.insert({sr * w + sc, b});
        int ans = -1;
        while (!q.empty() && ans < 0) {
            St s = q.front();
            q.pop();
            if (s.d >= 10)
                continue;
            for (int k = 0; k < 4 && ans < 0; k++) {
                int r = s.r, c = s.c;
                int nr = r + dr[k], nc = c + dc[k];
                if (nr < 0 || nc < 0 || nr >= h || nc >= w ||
                    s.b[nr * w + nc] == 1)
                    continue;
                for (;;) {
                    if (nr < 0 || nc < 0 || nr >= h || nc >= w)
                        break;
                    if (s.b[nr * w + nc] == 3) {
                        ans = s.d + 1;
                        break;
                    }
                    if (s.b[nr * w + nc] == 1) {
                        St t = {r, c, s.d + 1, s.b};
                        t.b[nr * w + nc] = 0;
                        if (seen.insert({r * w + c, t.b}).second)
                            q.push(t);
                        break;
                    }
                    r = nr, c = nc;
                    nr += dr[k], nc += dc[k];
                }
            }
        }
        printf("%d\n", ans);
    }
    return 0;
}
