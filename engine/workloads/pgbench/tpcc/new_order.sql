-- tpcc-like (benchgrid's builtin, docs/steps/tpcc-like.md): New-Order, TPC-C clause 2.4 (weight 45).
-- :scale is the number of warehouses. pgbench 15 runs this file as it is
-- (pgbench -M prepared -s W -f ...), benchgrid embeds it at build time.
\set w_id random(1, :scale)
\set d_id random(1, 10)
-- NURand(1023, 1, 3000) and NURand(8191, 1, 100000), clause 2.1.6
\set c_id ((random(0, 1023) | random(1, 3000)) + 259) % 3000 + 1
\set ol_cnt random(5, 15)
-- 1 %: the last item is an unused id (100001) and the order rolls back
\set rbk random(1, 100)
\set i1 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s1 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q1 random(1, 10)
\set i2 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s2 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q2 random(1, 10)
\set i3 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s3 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q3 random(1, 10)
\set i4 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s4 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q4 random(1, 10)
\set i5 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s5 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q5 random(1, 10)
\set i6 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s6 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q6 random(1, 10)
\set i7 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s7 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q7 random(1, 10)
\set i8 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s8 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q8 random(1, 10)
\set i9 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s9 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q9 random(1, 10)
\set i10 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s10 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q10 random(1, 10)
\set i11 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s11 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q11 random(1, 10)
\set i12 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s12 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q12 random(1, 10)
\set i13 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s13 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q13 random(1, 10)
\set i14 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s14 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q14 random(1, 10)
\set i15 ((random(0, 8191) | random(1, 100000)) + 7911) % 100000 + 1
\set s15 case when random(1, 100) = 1 then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set q15 random(1, 10)
BEGIN;
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse
  WHERE w_id = :w_id AND c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id \gset
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :w_id AND d_id = :d_id
  RETURNING d_next_o_id - 1 AS o_id, d_tax \gset
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)
  VALUES (:o_id, :d_id, :w_id, :c_id, now(), :ol_cnt,
          (SELECT bool_and(s = :w_id)::int FROM unnest(ARRAY[:s1, :s2, :s3, :s4, :s5, :s6, :s7, :s8, :s9, :s10, :s11, :s12, :s13, :s14, :s15]::int[]) WITH ORDINALITY AS t(s, n)
            WHERE n <= :ol_cnt));
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:o_id, :d_id, :w_id);
-- the order lines in one statement: stock rows are updated in (warehouse,
-- item) order, so that concurrent new-orders do not deadlock
WITH l AS (
    SELECT n::int AS n, CASE WHEN n = :ol_cnt AND :rbk = 1 THEN 100001 ELSE i END AS i, s, q
      FROM unnest(ARRAY[:i1, :i2, :i3, :i4, :i5, :i6, :i7, :i8, :i9, :i10, :i11, :i12, :i13, :i14, :i15]::int[],
                  ARRAY[:s1, :s2, :s3, :s4, :s5, :s6, :s7, :s8, :s9, :s10, :s11, :s12, :s13, :s14, :s15]::int[],
                  ARRAY[:q1, :q2, :q3, :q4, :q5, :q6, :q7, :q8, :q9, :q10, :q11, :q12, :q13, :q14, :q15]::int[]) WITH ORDINALITY AS t(i, s, q, n)
     WHERE n <= :ol_cnt),
  it AS (SELECT l.n, l.i, l.s, l.q, item.i_price FROM l JOIN item ON item.i_id = l.i),
  st AS (UPDATE stock SET s_quantity = CASE WHEN s_quantity >= u.q + 10 THEN s_quantity - u.q
                                            ELSE s_quantity - u.q + 91 END,
                          s_ytd = s_ytd + u.q, s_order_cnt = s_order_cnt + 1,
                          s_remote_cnt = s_remote_cnt + (u.s <> :w_id::int)::int
           FROM (SELECT DISTINCT ON (s, i) s, i, q FROM it ORDER BY s, i) u
          WHERE stock.s_w_id = u.s AND stock.s_i_id = u.i
          RETURNING s_w_id, s_i_id, CASE :d_id::int WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 WHEN 10 THEN s_dist_10 END AS dist),
  ins AS (INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                                  ol_quantity, ol_amount, ol_dist_info)
          SELECT :o_id::int, :d_id::int, :w_id::int, it.n, it.i, it.s, it.q, it.q * it.i_price, st.dist
            FROM it JOIN st ON st.s_w_id = it.s AND st.s_i_id = it.i
          RETURNING ol_amount)
SELECT count(*) AS lines FROM ins \gset
\if :lines < :ol_cnt
ROLLBACK;
\else
COMMIT;
\endif
